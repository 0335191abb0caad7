// What a link could carry, per direction, in decimal GB/s (1e9 bytes/s) of payload after line
// coding. These are the physical ceilings the measured figures are compared against; protocol
// overhead (TLP headers, flow control) keeps real transfers some 10% below them.
#pragma once

#include <optional>
#include <string>

#include "topology/pcie_link.hpp"
#include "topology/snapshot.hpp"

namespace p2p::bench {

// gen x width per direction, e.g. gen 5 x16 = 32 GT/s * 16 * 128/130 / 8 = 63.0 GB/s.
// nullopt for an unknown generation or a width other than 1, 2, 4, 8, 12, 16, 32.
std::optional<double> pcie_gbps_per_direction(int gen, int width);
std::optional<double> pcie_gbps_per_direction(const topo::PcieLink& link);

// "PCIe gen5 x16", "" when unknown.
std::string describe_pcie_link(const topo::PcieLink& link);

// NVLink generation of a data-centre GPU from its compute capability: 6.0 -> 1 (P100),
// 7.0 -> 2 (V100), 8.0 -> 3 (A100), 9.0 -> 4 (H100/H200), 10.x -> 5 (B200/GB200).
// nullopt for parts without NVLink or with bridge variants we have no figure for.
std::optional<int> nvlink_generation(int cc_major, int cc_minor);

// Per link, per direction, from the knowledge base's NVLink table (hardware/data/links.json):
// 20, 25, 25, 25, 50 GB/s for generations 1 to 5.
std::optional<double> nvlink_gbps_per_link(int generation);

}  // namespace p2p::bench
