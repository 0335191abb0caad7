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
  std::string name;           // the GPU's name where the topology or a capture gives it
};

// How a pair's P2P is known, strongest first. A clique resting on the path class alone is a
// guess about the host, which the plan calls provisional.
enum class EvidenceLevel { kPeerCopy, kDriver, kNvlink, kPathClass };
const char* to_string(EvidenceLevel l);  // peer_copy | driver | nvlink | path_class

// One thing the host said about a pair: for P2P (at its level) or against it. Against wins
// whatever the level: one refusal or one corrupted copy is enough to keep a pair apart.
struct PairEvidence {
  bool against = false;
  EvidenceLevel level = EvidenceLevel::kDriver;
  std::string basis;  // who said it: "peer copy", "driver", "simpleP2P", "nvbandwidth", ...
  std::string what;   // one phrase: "P2P OK on the host (driver)", "... (host-p2p.txt)"
};

// What the host's facts and P2P captures said about a pair, in the order they were read.
struct HostPair {
  std::vector<PairEvidence> evidence;
  std::vector<std::string> acs_redirect;  // switch ports between them that redirect to the root
};

struct HostView {
  topo::TopologySnapshot topology;
  std::vector<HostGpu> gpus;                                      // the topology's order
  std::map<std::pair<std::size_t, std::size_t>, HostPair> pairs;  // a < b
  std::string facts_source;                                       // "" without facts
  std::vector<std::string> notes;
  std::vector<std::string> captures;  // the host's P2P captures read (--p2p), as "file (tool)"

  const HostPair* pair(std::size_t a, std::size_t b) const;
  bool has_facts() const { return !facts_source.empty(); }
};

// The driver's P2P status and the peer copy of doctor facts as evidence on the view's pairs;
// `index` maps a bus id to the view's GPU, `whose` names the file ("" for --facts).
void add_facts_evidence(const doctor::Facts& f, const std::map<std::string, std::size_t>& index,
                        const std::string& whose, HostView& v);

// InputError when the facts name GPUs none of which is in the topology (another host's facts).
HostView make_host_view(const topo::TopologySnapshot& t, const doctor::Facts* facts,
                        const std::string& facts_source);

// The bridges where the pair's peer traffic turns (below their deepest common bridge) that
// redirect it to the root complex; from the facts' upstream chains. Empty without facts.
std::vector<std::string> acs_between(const doctor::Facts& f, const std::string& a,
                                     const std::string& b);

}  // namespace p2p::vm
