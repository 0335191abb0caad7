// A healthy bench run of eight PCIe Gen5 GPUs on two sockets, built on the real topology of
// topology/tests/golden/rtxpro6000-lxc.json (an 8 x RTX PRO 6000 host seen from an LXC
// container: NODE within a socket, SYS across), with figures at the healthy values published
// for such hosts (shared/ACCEPTANCE-ANCHORS.md §2: P2P 53-56 GB/s within a socket, 39-51
// across, staged 37-42, H2D/D2H 55, bidirectional 103-111, P2P latency 0.4-0.6 us). Each test
// then changes one thing and says what.
#pragma once

#include <string>

#include "common/file_io.hpp"
#include "document/bench_document.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::accept::testing {

inline doc::BandwidthResult figure(const std::string& c, const std::string& src,
                                   const std::string& dst, double gbps,
                                   const std::string& part = "", bool p2p = true) {
  doc::BandwidthResult r;
  r.case_name = c;
  r.src = src;
  r.dst = dst;
  r.part = part;
  r.method = "copy_engine";
  r.bytes = 256ull << 20;
  r.copies_per_sample = 1;
  r.samples_gbps = {gbps * 0.99, gbps, gbps * 1.01};
  r.median_gbps = gbps;
  r.min_gbps = gbps * 0.99;
  r.max_gbps = gbps * 1.01;
  r.spread_pct = 2.0;
  r.ceiling_gbps = part == "sum" ? 126.03 : 63.015;
  r.ceiling_link = "PCIe gen5 x16";
  r.achieved_pct = gbps / *r.ceiling_gbps * 100;
  if (src != "host" && dst != "host") r.p2p = p2p;
  return r;
}

inline doc::LatencyResult latency(const std::string& c, const std::string& src,
                                  const std::string& dst, double ns) {
  doc::LatencyResult l;
  l.case_name = c;
  l.src = src;
  l.dst = dst;
  l.samples_ns = {ns};
  l.median_ns = ns;
  l.min_ns = l.max_ns = ns;
  l.spread_pct = 0;
  if (dst != "host") l.p2p = true;
  return l;
}

inline std::string gpu(int i) { return "gpu" + std::to_string(i); }

inline doc::BenchDocument healthy_eight_gpu_run() {
  doc::BenchDocument d;
  d.hostname = "rtxpro6000-lxc";
  d.topology = topo::snapshot_from_json(
      read_json_file(std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/rtxpro6000-lxc.json"),
      "rtxpro6000-lxc.json");
  d.topology_source = "live";
  for (int i = 0; i < 8; ++i) {
    doc::GpuRecord g;
    g.cuda_ordinal = i;
    g.pci_bus_id = d.topology->gpus[static_cast<std::size_t>(i)].pci_bus_id;
    g.name = "NVIDIA RTX PRO 6000 Blackwell Server Edition";
    d.gpus.push_back(g);
    d.bandwidth.push_back(figure("h2d_ce", "host", gpu(i), 55.3));
    d.bandwidth.push_back(figure("d2h_ce", gpu(i), "host", 55.6));
    d.bandwidth.push_back(figure("h2d_d2h_ce", "host", gpu(i), 101.0, "sum"));
    d.latency.push_back(latency("latency_host", gpu(i), "host", 1200));
  }
  d.gpu_sharing = doc::SharingRecord{false, {"nvml", "locks"}, {}, {}};
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      const bool same_socket = (a < 4) == (b < 4);
      d.bandwidth.push_back(figure("ce_unidir_write", gpu(a), gpu(b), same_socket ? 54.8 : 45.2));
      d.bandwidth.push_back(figure("staged", gpu(a), gpu(b), same_socket ? 40.1 : 38.0));
      d.latency.push_back(latency("latency_peer", gpu(a), gpu(b), same_socket ? 450 : 620));
      if (a < b)
        d.bandwidth.push_back(figure("ce_bidir", gpu(a), gpu(b), same_socket ? 106 : 88, "sum"));
    }
  }
  return d;
}

inline doc::BandwidthResult* find(doc::BenchDocument& d, const std::string& c,
                                  const std::string& src, const std::string& dst,
                                  const std::string& part = "") {
  for (auto& r : d.bandwidth)
    if (r.case_name == c && r.src == src && r.dst == dst && r.part == part) return &r;
  return nullptr;
}

}  // namespace p2p::accept::testing
