// Every command docs/infer.md quotes runs as the page says, against files of this repository.
#include <gtest/gtest.h>

#include "common/testing/doc_commands.hpp"

namespace {

TEST(InferDocs, EveryCommandOfThePageRunsAsShown) {
  const int ran =
      p2p::testing::expect_doc_commands_run(P2P_SOURCE_DIR, "docs/infer.md", P2PCHECK_EXE);
  EXPECT_GE(ran, 4);  // the plans and the bad inputs run on every host
}

}  // namespace
