#include "bench/link_ceiling.hpp"

#include <cstdlib>

#include "hardware/knowledge_base.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::bench {

std::optional<double> pcie_gbps_per_direction(int gen, int width) {
  if (!topo::pcie_generation(gen)) return std::nullopt;
  switch (width) {
    case 1:
    case 2:
    case 4:
    case 8:
    case 12:
    case 16:
    case 32: break;
    default: return std::nullopt;
  }
  return topo::hwloc_link_gbps(gen, width);  // one formula for the whole project: topology's
}

std::optional<double> pcie_gbps_per_direction(const topo::PcieLink& link) {
  if (!link.gen || !link.width) return std::nullopt;
  return pcie_gbps_per_direction(*link.gen, *link.width);
}

std::string describe_pcie_link(const topo::PcieLink& link) {
  if (!link.gen || !link.width) return "";
  return "PCIe gen" + std::to_string(*link.gen) + " x" + std::to_string(*link.width);
}

std::optional<int> nvlink_generation(int cc_major, int cc_minor) {
  if (cc_major == 6 && cc_minor == 0) return 1;
  if (cc_major == 7 && cc_minor == 0) return 2;
  if (cc_major == 8 && cc_minor == 0) return 3;
  if (cc_major == 9 && cc_minor == 0) return 4;
  if (cc_major == 10) return 5;
  return std::nullopt;
}

std::optional<double> nvlink_gbps_per_link(int generation) {
  return hw::nvlink_gbps(hw::builtin_knowledge_base(), generation, 1);
}

}  // namespace p2p::bench
