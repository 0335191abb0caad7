// Which GPUs going to one VM may share a GPUDirect clique, from the host's real topology and what
// the host's driver and peer copy said. A clique is the hypervisor's promise, which neither QEMU
// nor the guest driver checks: a pair joins one only where the host shows it carries P2P (or,
// without facts, where its path is one the driver allows: NVLink, one switch, one host bridge).
// Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "vm/host_view.hpp"

namespace p2p::vm {

// One pair of the VM's GPUs on the host.
struct PairJudgement {
  std::size_t a = 0, b = 0;  // host topology indexes, a < b
  bool p2p = false;          // may share a clique
  std::string path;          // the host's class of the pair ("PIX", "NV12", "SYS")
  std::string basis;   // what decided: "peer copy", "driver", "nvidia-smi topo -p2p", "topology",
                       // "iommu group", "ACS", "simpleP2P", ...
  std::string reason;  // one phrase: "P2P OK on the host (driver)", "across sockets (SYS)"
  std::optional<EvidenceLevel> level;  // how strongly P2P is known where p2p; nullopt where not
  std::vector<PairEvidence> evidence;  // everything the host said about the pair, for and against
};

PairJudgement judge_pair(const HostView& v, std::size_t a, std::size_t b);

struct PlannedGpu {
  std::size_t index = 0;  // in the host topology
  std::string bdf;
  std::optional<int> clique;          // nullopt: left out
  std::vector<std::string> why;       // why it is in its clique or left out, one line per peer
  std::vector<std::string> facts;     // ACS, IOMMU group: what else the host says about it
  std::vector<std::string> warnings;  // what stops it going to a VM at all (group, faults)
};

struct Clique {
  int id = 0;
  std::vector<std::size_t> gpus;  // host topology indexes
};

struct CliquePlan {
  std::vector<PlannedGpu> gpus;  // the VM's GPUs, in the order given
  std::vector<Clique> cliques;   // only pairs the host's evidence carries
  // GPUs the path class alone would join: proposed, no ID, no setting, until proven.
  std::vector<std::vector<std::size_t>> provisional_groups;
  std::vector<PairJudgement> pairs;
  std::vector<std::string> notes;
  bool complete() const;  // every GPU in a clique (or a single GPU, which needs none)
  // The pairs of the provisional groups that rest on the path class alone.
  std::vector<const PairJudgement*> provisional() const;
};

// `selected`: host topology indexes, distinct, valid. InputError when the cliques would need an
// ID over 15 from `first_clique`.
CliquePlan make_clique_plan(const HostView& v, const std::vector<std::size_t>& selected,
                            int first_clique);

// "GPU3 (0000:41:00.0)", or "GPU3" where the topology has no bus ids.
std::string gpu_label(const HostView& v, std::size_t index);

}  // namespace p2p::vm
