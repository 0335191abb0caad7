// The hosts of published reports about failing GPUs, refused GPUs, vGPU licences, MIG and held
// GPUs (fixtures/health_stories.py; README.md in fixtures/ names each report and the fix its
// reporter confirmed): the doctor must rank the report's cause first, name its GPUs, exit as the
// report requires and give the fix that worked.
#include <gtest/gtest.h>

#include "story_expectations.hpp"

namespace {

using namespace p2p::doctor;
using test::StoryExpectation;

class HealthStory : public ::testing::TestWithParam<StoryExpectation> {};

TEST_P(HealthStory, NamesTheReportedCause) {
  const StoryExpectation& e = GetParam();
  const auto j = test::judge_fixture(e.fixture);
  for (const auto& miss : test::story_misses(j, e))
    ADD_FAILURE() << e.fixture << " (" << e.source << "): " << miss;
}

INSTANTIATE_TEST_SUITE_P(
    Reports, HealthStory,
    ::testing::ValuesIn(test::story_expectations("health-stories.expect.json")),
    [](const ::testing::TestParamInfo<StoryExpectation>& info) {
      return test::fixture_name(info.param.fixture);
    });

}  // namespace
