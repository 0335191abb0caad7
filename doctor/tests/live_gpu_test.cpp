// On a GPU host: the live doctor must see a working CUDA and NVML and agree with itself.
#include <gtest/gtest.h>

#include "doctor/collect.hpp"
#include "doctor/derived.hpp"
#include "doctor/probes.hpp"
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

// The NVLink probe live topology uses: NVML answers for every GPU it lists (an empty list
// where NVLink is absent or disabled), each far end a PCI bus id, never more than 18 links.
TEST(LiveDoctorGpu, NvlinkProbeAnswersForEveryGpu) {
  const Facts facts = collect_facts(CollectOptions{});
  if (facts.nvml.devices.empty()) GTEST_SKIP() << "NVML lists no GPU here (" << facts.nvml.status << ")";
  std::vector<std::string> bus_ids;
  for (const auto& d : facts.nvml.devices) bus_ids.push_back(d.pci_bus_id);
  const auto remotes = probe_nvlink_remotes(bus_ids, 45000);
  ASSERT_TRUE(remotes.has_value()) << "the NVLink probe failed on a host where NVML works";
  ASSERT_EQ(remotes->size(), bus_ids.size());
  for (std::size_t i = 0; i < remotes->size(); ++i) {
    EXPECT_LE((*remotes)[i].size(), 18u) << bus_ids[i];
    for (const auto& far : (*remotes)[i]) EXPECT_EQ(far.size(), 12u) << bus_ids[i] << " -> `" << far << "`";
  }
}

}  // namespace
