// On a GPU host: the live doctor must see a working CUDA and NVML and agree with itself.
#include <gtest/gtest.h>

#include "doctor/collect.hpp"
#include "doctor/derived.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;

TEST(LiveDoctorGpu, CudaAndNvmlWorkAndAgree) {
  const auto j = test::judge_facts(collect_facts(CollectOptions{}));
  if (j.facts.cuda.status == "library_missing" || nvidia_loaded(j.facts) == Tri::kNo)
    GTEST_SKIP() << "no usable GPU: " << j.verdict.headline;
  EXPECT_EQ(j.facts.cuda.status, "completed") << j.facts.cuda.detail;
  EXPECT_EQ(j.status("cuda.init"), Status::kPass) << j.at("cuda.init").summary;
  EXPECT_EQ(j.status("nvml.init"), Status::kPass) << j.at("nvml.init").summary;
  EXPECT_EQ(j.facts.cuda.device_count, j.facts.nvml.device_count);
  for (const auto& f : j.findings) EXPECT_NE(f.summary, "") << f.id;
  EXPECT_TRUE(j.verdict.state == "healthy" || j.verdict.state == "degraded") << j.verdict.headline;
}

}  // namespace
