// The collector run live on the machine the tests run on. CI machines have no NVIDIA driver:
// there the doctor must finish, without crashing, on "no NVIDIA driver". On a GPU host the
// second test checks the opposite (and the first skips).
#include <gtest/gtest.h>

#include "common/dynamic_library.hpp"
#include "common/file_io.hpp"
#include "doctor/collect/collect.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;

bool host_has_driver() {
  return p2p::try_read_text_file("/proc/driver/nvidia/version").has_value() ||
         p2p::DynamicLibrary::open("libcuda.so.1").loaded();
}

TEST(LiveCollector, DriverlessHostConcludesNoNvidiaDriver) {
  if (host_has_driver())
    GTEST_SKIP()
        << "this host has an NVIDIA driver; see LiveCollector.DriverHostIsNotReportedDriverless";
  CollectOptions o;
  o.probe_timeout_ms = 20000;
  const auto j = test::judge_facts(collect_facts(o));
  EXPECT_EQ(j.facts.source, "live");
  EXPECT_EQ(j.facts.cuda.status, ProbeStatus::kLibraryMissing);
  EXPECT_EQ(j.facts.nvml.status, ProbeStatus::kLibraryMissing);
  EXPECT_EQ(j.verdict.state, VerdictState::kNoDriver);
  EXPECT_EQ(j.verdict.headline.rfind("no NVIDIA driver", 0), 0u) << j.verdict.headline;
  EXPECT_EQ(j.status("module.loaded"), Status::kFail);
  // What was collected live survives --save-facts / --facts unchanged.
  EXPECT_EQ(facts_to_json(facts_from_json(facts_to_json(j.facts))), facts_to_json(j.facts));
}

TEST(LiveCollector, DriverHostIsNotReportedDriverless) {
  if (!host_has_driver()) GTEST_SKIP() << "no NVIDIA driver on this host";
  const auto j = test::judge_facts(collect_facts(CollectOptions{}));
  EXPECT_NE(j.verdict.state, VerdictState::kNoDriver);
  EXPECT_NE(j.facts.cuda.status, ProbeStatus::kNotRun);
  EXPECT_NE(j.facts.nvml.status, ProbeStatus::kNotRun);
}

}  // namespace
