// PCIe link arithmetic shared by discovery (hwloc XML, sysfs) and the gate. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::topo {

enum class LineCoding { k8b10b, k128b130b, kPam4Flit };

// One PCIe generation, as the hardware knowledge base's link table gives it
// (hardware/data/links.json): the only table of them in the project.
struct PcieGeneration {
  int gen = 0;
  double gigatransfers_per_s = 0;  // per lane
  LineCoding coding = LineCoding::k8b10b;
  double efficiency = 0;  // payload bits per transferred bit
};

// Gen 1-2: 8b/10b; gen 3-5: 128b/130b; gen 6: PAM4 with 256-byte FLITs, of which 242 bytes
// are TLP and DLLP (the rest FEC and CRC). nullopt outside 1..6.
std::optional<PcieGeneration> pcie_generation(int gen);

// Per-direction bandwidth in GB/s the way hwloc computes pci_link_speed: lanes x GT/s x line
// coding / 8 (see pcie_generation). 0 for a generation outside 1..6.
double hwloc_link_gbps(int gen, int width);

// A link with gen, width and the matching GB/s.
PcieLink make_link(int gen, int width);

// The (gen, width) pairs a GPU link could be for an hwloc GB/s figure. GPUs are at most x16,
// so widths 1-16 only; 63.015 GB/s is then only Gen5 x16, while 31.508 is Gen4 x16 or Gen5 x8.
std::vector<std::pair<int, int>> link_candidates(double gbps);

// From hwloc's GB/s: gbps always (rounded to 1 MB/s), gen and width where exactly one
// candidate fits. 0 (hwloc's "unknown", e.g. emulated devices) gives an empty link.
PcieLink link_from_gbps(double gbps);

// Generation from a per-lane transfer rate (32.0 GT/s -> 5, as sysfs *_link_speed reports it;
// see common/sysfs_pci_link.hpp); nullopt for a rate no generation runs at.
std::optional<int> gen_from_gts(double gigatransfers_per_s);

// "Gen5 x16", "31.508 GB/s (Gen4 x16 or Gen5 x8)", "unknown".
std::string describe_link(const PcieLink& link);

}  // namespace p2p::topo
