// The host's P2P captures as evidence (vm plan --p2p): each tool's word on a pair, matched to the
// host topology's GPUs, for and against.
#include "vm/host_capture.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "vm/clique_plan.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

std::string fixture(const std::string& name) {
  return read_text_file(testing::source("import/tests/fixtures/" + name));
}

HostView with(const std::string& topology_fixture, const std::string& capture) {
  HostView v = testing::host(testing::source("import/tests/fixtures/" + topology_fixture));
  for (const auto& c : parse_host_captures(fixture(capture), capture)) add_capture_evidence(v, c);
  return v;
}

TEST(HostCapture, P2pBandwidthLatencyTestsConnectivityJoinsTheNvlinkPairsOnly) {
  const HostView v =
      with("topo-4x-a100-pcie-nv12-pairs.txt", "p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt");
  const PairJudgement in = judge_pair(v, 0, 1), across = judge_pair(v, 1, 2);
  EXPECT_TRUE(in.p2p);
  EXPECT_EQ(in.level, EvidenceLevel::kDriver);
  EXPECT_EQ(in.basis, "p2pBandwidthLatencyTest");
  EXPECT_FALSE(across.p2p);
  EXPECT_NE(across.reason.find("no peer access"), std::string::npos) << across.reason;
}

TEST(HostCapture, ASimpleP2pVerificationErrorKeepsThePairApartWhateverElseSaysOk) {
  HostView v = with("topo-2x-rtx5090-phb-and-p2p-rw-gns.txt", "simple-p2p-2gpu-passed.txt");
  EXPECT_FALSE(judge_pair(v, 0, 1).p2p) << "the topology's own topo -p2p says GNS";
  v = testing::host(testing::source("import/tests/fixtures/topo-4x-a100-pcie-nv12-pairs.txt"));
  for (const auto& c : parse_host_captures(fixture("simple-p2p-2gpu-passed.txt"), "passed.txt"))
    add_capture_evidence(v, c);
  const PairJudgement ok = judge_pair(v, 0, 1);
  EXPECT_EQ(ok.level, EvidenceLevel::kPeerCopy) << ok.reason;
  for (const auto& c :
       parse_host_captures(fixture("simple-p2p-2gpu-verification-errors.txt"), "errors.txt"))
    add_capture_evidence(v, c);
  const PairJudgement bad = judge_pair(v, 0, 1);
  EXPECT_FALSE(bad.p2p);
  EXPECT_NE(bad.reason.find("did not verify"), std::string::npos) << bad.reason;
}

TEST(HostCapture, NvidiaSmiP2pStatusesJoinTheTopology) {
  const HostView v = with("rtxpro6000-lxc-topo.txt", "rtxpro6000-lxc-p2p-w.txt");
  EXPECT_EQ(judge_pair(v, 0, 1).basis, "nvidia-smi topo -p2p");
  EXPECT_TRUE(judge_pair(v, 0, 1).p2p);
  EXPECT_FALSE(judge_pair(v, 0, 2).p2p);
  EXPECT_EQ(v.captures,
            std::vector<std::string>{"rtxpro6000-lxc-p2p-w.txt (nvidia-smi topo -p2p)"});
}

TEST(HostCapture, NvbandwidthMatchedByBusIdCarriesTheSwitchPairsItMeasured) {
  HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"));
  const std::string name = "nvbandwidth-v0.8-4gpu-pcie-switches.txt";
  for (const auto& c : parse_host_captures(fixture(name), name)) add_capture_evidence(v, c);
  const PairJudgement measured = judge_pair(v, 0, 1), na = judge_pair(v, 0, 2);
  EXPECT_TRUE(measured.p2p);
  EXPECT_EQ(measured.basis, "nvbandwidth");
  EXPECT_EQ(measured.level, EvidenceLevel::kDriver);
  EXPECT_FALSE(na.p2p) << "N/A says nothing: the path class (NODE) decides";
  EXPECT_EQ(na.basis, "topology");
  EXPECT_TRUE(v.notes.empty()) << "matched by bus id, not by number";
}

TEST(HostCapture, AWaivedNvbandwidthRefusesEveryPair) {
  const HostView v =
      with("topo-2x-rtx5090-phb-and-p2p-rw-gns.txt", "nvbandwidth-v0.4-waived-d2d-only.txt");
  const auto seen = judge_pair(v, 0, 1).evidence;
  EXPECT_TRUE(std::any_of(seen.begin(), seen.end(), [](const PairEvidence& e) {
    return e.against && e.basis == "nvbandwidth";
  }));
}

TEST(HostCapture, DoctorFactsGivenAsACaptureProveThePairsTheirCopyVerified) {
  HostView v = testing::host(testing::topology("rtxpro6000-lxc.xml"));
  const std::string facts = read_text_file(testing::host_facts());
  for (const auto& c : parse_host_captures(facts, "host-facts.json")) add_capture_evidence(v, c);
  EXPECT_EQ(judge_pair(v, 0, 1).level, EvidenceLevel::kPeerCopy);
  EXPECT_EQ(judge_pair(v, 0, 1).reason, "peer copy verified on the host (host-facts.json)");
  EXPECT_FALSE(judge_pair(v, 0, 4).p2p);
}

TEST(HostCapture, ABenchOfLogicalGpusOnOneDeviceProvesNothing) {
  try {
    parse_host_captures(
        read_text_file(testing::source("results/h200-vm-2026-12-03-speed/bench-logical8.json")),
        "logical8.json");
    FAIL() << "logical GPUs of one device were taken as evidence";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("logical GPUs sharing one device"), std::string::npos);
  }
}

TEST(HostCapture, BadCapturesAreRefusedNamingTheFile) {
  EXPECT_THROW(parse_host_captures(fixture("nccl-tests-1x-rtx5090-all_reduce.txt"), "nccl.txt"),
               InputError);
  EXPECT_THROW(parse_host_captures("hello\n", "hello.txt"), InputError);
  HostView v = testing::host(
      testing::source("import/tests/fixtures/topo-2x-rtx5090-phb-and-p2p-rw-gns.txt"));
  const auto four =
      parse_host_captures(fixture("p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt"), "four.txt");
  try {
    add_capture_evidence(v, four.at(0));
    FAIL() << "a capture of four GPUs on a host of two";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("four.txt: it names GPU2, but the topology has 2 GPUs"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace p2p::vm
