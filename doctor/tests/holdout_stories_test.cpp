// The set-aside third of the health-report corpus (fixtures/holdout/): reports kept apart before
// the rules were written, judged like health_stories_test.cpp. Their score measures the doctor on
// failures it was not tuned on; HoldoutScore prints it.
#include <gtest/gtest.h>

#include <iostream>

#include "story_expectations.hpp"

namespace {

using namespace p2p::doctor;
using test::StoryExpectation;

std::vector<StoryExpectation> holdout() {
  return test::story_expectations("holdout/expect.json", "holdout/");
}

class HoldoutStory : public ::testing::TestWithParam<StoryExpectation> {};

TEST_P(HoldoutStory, NamesTheReportedCause) {
  const StoryExpectation& e = GetParam();
  const auto j = test::judge_fixture(e.fixture);
  for (const auto& miss : test::story_misses(j, e))
    ADD_FAILURE() << e.fixture << " (" << e.source << "): " << miss;
}

INSTANTIATE_TEST_SUITE_P(SetAside, HoldoutStory, ::testing::ValuesIn(holdout()),
                         [](const ::testing::TestParamInfo<StoryExpectation>& info) {
                           return test::fixture_name(info.param.fixture);
                         });

TEST(HoldoutScore, PrintsHowManyReportsTheDoctorGotRight) {
  int right = 0;
  const auto all = holdout();
  for (const auto& e : all) {
    const auto misses = test::story_misses(test::judge_fixture(e.fixture), e);
    if (misses.empty()) ++right;
    for (const auto& m : misses) std::cout << "  miss " << e.fixture << ": " << m << "\n";
  }
  std::cout << "set-aside score: " << right << " of " << all.size() << "\n";
  EXPECT_EQ(all.size(), 11u) << "a third of the 33 reports";
}

}  // namespace
