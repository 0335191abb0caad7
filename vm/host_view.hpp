// The host as `vm plan` sees it: the real topology (bare metal, or the LXC container on it, which
// sees the host's tree) and, where given, the doctor's facts saved there: the driver's P2P status
// per pair, the peer copy, the ACS control of the bridges, the IOMMU groups and faults. Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "doctor/facts.hpp"
#include "topology/snapshot.hpp"

namespace p2p::vm {

struct HostGpu {
  std::string bdf;                        // "" where the topology is an nvidia-smi capture
  std::vector<std::string> acs_redirect;  // bridges above it whose ACS redirects peer requests
  bool group_read = false;  // the facts recorded its IOMMU group (or that it has none)
  std::optional<int> iommu_group;
  // Other devices of its IOMMU group, not its own functions and not bridges: VFIO hands a VM
  // whole groups. "0000:42:00.0 (class 0x020000)".
  std::vector<std::string> group_others;
  std::vector<std::string> group_other_bdfs;
  bool iommu_faults = false;  // the host's kernel log shows the IOMMU refusing its DMA
};

// What the host's driver and the peer copy said about a pair.
struct HostPair {
  std::optional<bool> driver_p2p;  // NVML read and write both OK
  std::string driver_reason;       // the status where not OK ("CHIPSET_NOT_SUPPORTED")
  doctor::PairCopy copy = doctor::PairCopy::kNotRun;  // verified: one direction arrived intact
  std::string copy_detail;                            // the failing direction and result
  std::vector<std::string> acs_redirect;  // switch ports between them that redirect to the root
};

struct HostView {
  topo::TopologySnapshot topology;
  std::vector<HostGpu> gpus;                                      // the topology's order
  std::map<std::pair<std::size_t, std::size_t>, HostPair> pairs;  // a < b
  std::string facts_source;                                       // "" without facts
  std::vector<std::string> notes;

  const HostPair* pair(std::size_t a, std::size_t b) const;
  bool has_facts() const { return !facts_source.empty(); }
};

// InputError when the facts name GPUs none of which is in the topology (another host's facts).
HostView make_host_view(const topo::TopologySnapshot& t, const doctor::Facts* facts,
                        const std::string& facts_source);

// The bridges where the pair's peer traffic turns (below their deepest common bridge) that
// redirect it to the root complex; from the facts' upstream chains. Empty without facts.
std::vector<std::string> acs_between(const doctor::Facts& f, const std::string& a,
                                     const std::string& b);

}  // namespace p2p::vm
