// Every command docs/fleet.md quotes runs as the page says, against files of this repository.
#include <gtest/gtest.h>

#include "common/testing/doc_commands.hpp"

namespace {

TEST(FleetDocs, EveryCommandOfThePageRunsAsShown) {
  const int ran =
      p2p::testing::expect_doc_commands_run(P2P_SOURCE_DIR, "docs/fleet.md", P2PCHECK_EXE);
  EXPECT_GE(ran, 5);  // the merges run on every host
}

}  // namespace
