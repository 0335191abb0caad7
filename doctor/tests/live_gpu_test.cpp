// On a GPU host: the live doctor must see a working CUDA and NVML and agree with itself.
#include <gtest/gtest.h>

#include <cstdlib>

#include "doctor/collect/collect.hpp"
#include "doctor/collect/probes.hpp"
#include "doctor/derived.hpp"
#include "test_support.hpp"

namespace {

using namespace p2p::doctor;

TEST(LiveDoctorGpu, CudaAndNvmlWorkAndAgree) {
  const auto j = test::judge_facts(collect_facts(CollectOptions{}));
  if (j.facts.cuda.status == ProbeStatus::kLibraryMissing || nvidia_loaded(j.facts) == Tri::kNo)
    GTEST_SKIP() << "no usable GPU: " << j.verdict.headline;
  EXPECT_EQ(j.facts.cuda.status, ProbeStatus::kCompleted) << j.facts.cuda.detail;
  EXPECT_EQ(j.status("cuda.init"), Status::kPass) << j.at("cuda.init").summary;
  EXPECT_EQ(j.status("nvml.init"), Status::kPass) << j.at("nvml.init").summary;
  EXPECT_EQ(j.facts.cuda.device_count, j.facts.nvml.device_count);
  for (const auto& f : j.findings) EXPECT_NE(f.summary, "") << f.id;
  EXPECT_TRUE(j.verdict.state == VerdictState::kHealthy ||
              j.verdict.state == VerdictState::kAtRisk ||
              j.verdict.state == VerdictState::kDegraded)
      << j.verdict.headline;
}

// The NVLink probe live topology uses: NVML answers for every GPU it lists (an empty list
// where NVLink is absent or disabled), each far end a PCI bus id, never more than 18 links.
TEST(LiveDoctorGpu, NvlinkProbeAnswersForEveryGpu) {
  const Facts facts = collect_facts(CollectOptions{});
  if (facts.nvml.devices.empty())
    GTEST_SKIP() << "NVML lists no GPU here (" << to_string(facts.nvml.status) << ")";
  std::vector<std::string> bus_ids;
  for (const auto& d : facts.nvml.devices) bus_ids.push_back(d.pci_bus_id);
  const auto remotes = probe_nvlink_remotes(bus_ids, 45000);
  ASSERT_TRUE(remotes.has_value()) << "the NVLink probe failed on a host where NVML works";
  ASSERT_EQ(remotes->size(), bus_ids.size());
  for (std::size_t i = 0; i < remotes->size(); ++i) {
    EXPECT_LE((*remotes)[i].size(), 18u) << bus_ids[i];
    for (const auto& far : (*remotes)[i])
      EXPECT_EQ(far.size(), 12u) << bus_ids[i] << " -> `" << far << "`";
  }
}

// The peer-copy check on the real driver: PTX kernels JIT-compiled, cuMemcpyPeer, SM stores and
// the count on the destination. Logical GPUs make every pair path run on a one-GPU host.
TEST(LiveDoctorGpu, PeerCopyVerifiesEveryPairOfLogicalGpus) {
  CollectOptions o;
  o.peer_copy_logical_gpus = 2;
  const auto j = test::judge_facts(collect_facts(o));
  if (!cuda_works(j.facts)) GTEST_SKIP() << "no usable GPU: " << j.verdict.headline;
  const auto& pc = j.facts.peer_copy;
  ASSERT_EQ(pc.status, ProbeStatus::kCompleted) << pc.detail;
  EXPECT_EQ(pc.mode, PeerCopyMode::kLogical);
  ASSERT_EQ(pc.pairs.size(), 2u);
  for (const auto& p : pc.pairs) {
    EXPECT_EQ(p.copy_result, CopyResult::kOk) << p.detail;
    EXPECT_EQ(p.store_result, CopyResult::kOk)
        << p.detail << " (\"not_run\" here means the PTX did not load)";
    EXPECT_EQ(p.copy_mismatched_words, std::optional<std::uint64_t>(0));
    EXPECT_EQ(p.store_mismatched_words, std::optional<std::uint64_t>(0));
  }
  EXPECT_EQ(j.status("p2p.copy"), Status::kPass) << j.at("p2p.copy").summary;
}

TEST(LiveDoctorGpu, PeerCopyWithoutLogicalGpusNamesItsMode) {
  const auto j = test::judge_facts(collect_facts(CollectOptions{}));
  if (!cuda_works(j.facts)) GTEST_SKIP() << "no usable GPU: " << j.verdict.headline;
  const auto& pc = j.facts.peer_copy;
  ASSERT_EQ(pc.status, ProbeStatus::kCompleted) << pc.detail;
  if (j.facts.cuda.device_count == 1) {
    EXPECT_EQ(pc.mode, PeerCopyMode::kSelf);
    EXPECT_EQ(pc.detail, "one GPU: checked against itself");
    EXPECT_TRUE(test::contains(j.at("p2p.copy").summary, "one GPU: checked against itself"))
        << j.at("p2p.copy").summary;
  } else {
    EXPECT_EQ(pc.mode, PeerCopyMode::kPairs);
  }
  EXPECT_EQ(j.status("p2p.copy"), Status::kPass) << j.at("p2p.copy").summary;
}

// The test hook spoils each destination before it is checked: the real kernels must count it and
// the rule must turn it into the verdict's cause.
TEST(LiveDoctorGpu, CorruptedPeerDataReachesTheVerdict) {
  const Facts live = collect_facts(CollectOptions{});
  if (!cuda_works(live)) GTEST_SKIP() << "no usable GPU: cuInit did not succeed here";
  ::setenv("P2P_DOCTOR_PEER_COPY_FAULT", "corrupt", 1);
  Facts f = live;
  f.peer_copy = probe_peer_copy(45000, 2);
  ::unsetenv("P2P_DOCTOR_PEER_COPY_FAULT");
  ASSERT_EQ(f.peer_copy.status, ProbeStatus::kCompleted) << f.peer_copy.detail;
  for (const auto& p : f.peer_copy.pairs) {
    EXPECT_EQ(p.copy_result, CopyResult::kCorrupt) << p.detail;
    EXPECT_EQ(p.copy_mismatched_words, std::optional<std::uint64_t>(1024)) << p.detail;
    EXPECT_TRUE(test::contains(p.detail, "test fault hook")) << p.detail;
  }
  const auto j = test::judge_facts(f);
  EXPECT_EQ(j.status("p2p.copy"), Status::kFail);
  EXPECT_TRUE(test::contains(j.at("p2p.copy").summary,
                             "P2P claimed but data did not arrive on 2 of 2 pair(s)"))
      << j.at("p2p.copy").summary;
  ASSERT_FALSE(j.verdict.causes.empty());
  EXPECT_EQ(j.verdict.causes.front().id, "p2p_data_lost") << j.verdict.headline;
}

}  // namespace
