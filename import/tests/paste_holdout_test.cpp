// The third of the pastes put aside before the readers were changed (fixtures/pastes/holdout/,
// expectations written at the same time): every expectation holds, and the score is printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "import/tests/paste_expectations.hpp"

namespace p2p::import {
namespace {

const std::string kFolder = std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/pastes/holdout";

TEST(PasteHoldout, EveryExpectationReadOffAPasteHolds) {
  int checks = 0;
  const auto missed = testing::misses(kFolder, checks);
  std::set<std::string> files;
  for (const auto& [file, list] : testing::expectations(kFolder)) files.insert(file);
  std::set<std::string> missed_files;
  for (const auto& m : missed) missed_files.insert(m.substr(0, m.find(':')));
  std::printf("holdout: %zu of %zu pastes and %d of %d checks hold\n",
              files.size() - missed_files.size(), files.size(),
              checks - static_cast<int>(missed.size()), checks);
  EXPECT_EQ(files.size(), 17u);
  for (const auto& m : missed) ADD_FAILURE() << m;
}

}  // namespace
}  // namespace p2p::import
