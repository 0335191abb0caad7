#include "report/nccl_transport_view.hpp"

#include <gtest/gtest.h>

namespace p2p::report {
namespace {

using topo::PathClass;

// Two ranks whose GPUs sit behind one host bridge (PHB), as in a VFIO VM.
doc::NcclRun two_rank_run(doc::TransportCell zero_to_one, doc::TransportCell one_to_zero) {
  doc::NcclRun run;
  run.environment.devices = {{0, 0, "0000:01:00.0", "GPU A", {}, ""},
                             {1, 1, "0000:02:00.0", "GPU B", {}, ""}};
  run.transport.nranks = 2;
  run.transport.pairs[{0, 1}] = std::move(zero_to_one);
  run.transport.pairs[{1, 0}] = std::move(one_to_zero);
  return run;
}

topo::TopologySnapshot phb_pair() {
  topo::TopologySnapshot t;
  t.gpus.resize(2);
  t.gpus[0].pci_bus_id = "0000:01:00.0";
  t.gpus[1].pci_bus_id = "0000:02:00.0";
  t.pcie_matrix = {{PathClass::kSelf, PathClass::kPhb}, {PathClass::kPhb, PathClass::kSelf}};
  t.nvlink_count = {{0, 0}, {0, 0}};
  return t;
}

TEST(TransportVsTopology, ShowsTransportBesideThePathAndCountsFallbacks) {
  const auto run = two_rank_run({{"SHM/direct/direct"}, 2}, {{"SHM/direct/direct"}, 2});
  const std::string out = format_transport_vs_topology(run, phb_pair());
  EXPECT_NE(out.find("SHM/direct/direct / PHB"), std::string::npos) << out;
  EXPECT_NE(out.find("2 pair(s) did not use P2P"), std::string::npos) << out;
}

TEST(TransportVsTopology, P2pPairsAreNotCountedAsFallbacks) {
  const auto run = two_rank_run({{"P2P/IPC"}, 8}, {{"P2P/IPC"}, 8});
  const std::string out = format_transport_vs_topology(run, phb_pair());
  EXPECT_NE(out.find("P2P/IPC / PHB"), std::string::npos) << out;
  EXPECT_EQ(out.find("did not use P2P"), std::string::npos) << out;
}

TEST(TransportVsTopology, MatchesBusIdsCaseInsensitivelyAndPrefersNvlink) {
  auto run = two_rank_run({{"P2P/direct pointer"}, 24}, {{"P2P/direct pointer"}, 24});
  run.environment.devices[0].pci_bus_id = "0000:01:00.0";
  auto t = phb_pair();
  t.gpus[0].pci_bus_id = "0000:01:00.0";
  t.nvlink_count = {{0, 12}, {12, 0}};
  run.environment.devices[1].pci_bus_id = "0000:02:00.0";
  const std::string out = format_transport_vs_topology(run, t);
  EXPECT_NE(out.find("/ NV12"), std::string::npos) << out;
}

TEST(TransportVsTopology, UnknownGpuShowsQuestionMarkAndSingleRankShowsNothing) {
  auto run = two_rank_run({{"P2P/IPC"}, 8}, {{"P2P/IPC"}, 8});
  run.environment.devices[1].pci_bus_id = "0000:C1:00.0";
  EXPECT_NE(format_transport_vs_topology(run, phb_pair()).find("P2P/IPC / ?"), std::string::npos);
  doc::NcclRun single;
  single.transport.nranks = 1;
  EXPECT_EQ(format_transport_vs_topology(single, phb_pair()), "");
}

}  // namespace
}  // namespace p2p::report
