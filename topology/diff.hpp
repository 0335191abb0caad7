// `topo diff`: which GPU pairs changed class between two snapshots, and how many pairs of
// each class each side has. Pure; the gate's --expect rule is built on it.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::topo {

// How the GPUs of two snapshots are put side by side. By PCI bus id where both sides have the
// same set of bus ids; else by index (PCI bus id order), which is what a VM against its host
// needs: the guest renumbers the buses. No pairing at all when the GPU counts differ.
struct GpuPairing {
  std::string by;                  // "pci_bus_id" | "index" | "none"
  std::vector<std::size_t> other;  // other[i]: index on the second side of GPU i of the first
};
GpuPairing pair_gpus(const TopologySnapshot& first, const TopologySnapshot& second);

struct PairChange {
  std::size_t gpu_a = 0, gpu_b = 0;      // indexes on the first side (gpu_a < gpu_b)
  std::size_t other_a = 0, other_b = 0;  // the paired indexes on the second side
  std::string before, after;             // matrix labels ("PHB", "NV12", ...)
  std::string pcie_before, pcie_after;  // PCIe classes, which differ even where NVLink hides it; ""
                                        // where a capture (nvidia-smi) hides it under NV#
};

// Unordered pairs (i < j) per matrix label.
using ClassCounts = std::map<std::string, int>;
ClassCounts count_pair_classes(const TopologySnapshot& t);

struct TopologyDiff {
  std::size_t gpus_before = 0, gpus_after = 0;
  std::string pairing;           // as GpuPairing::by
  bool bus_ids_unknown = false;  // a side (an nvidia-smi capture) names no PCI bus ids
  // (first side, second side) PCI bus id of each GPU pair put side by side, first side's order.
  std::vector<std::pair<std::string, std::string>> matched_bus_ids;
  std::vector<PairChange> changed;
  ClassCounts counts_before, counts_after;
  bool same() const { return gpus_before == gpus_after && changed.empty(); }
};

TopologyDiff diff_topologies(const TopologySnapshot& before, const TopologySnapshot& after);

// Labels of both count maps, best class first (NV<n> by link count, then PIX ... SYS).
std::vector<std::string> ordered_labels(const ClassCounts& a, const ClassCounts& b);

// "12 NODE, 16 SYS": the pairs of each class, best class first.
std::string class_counts_text(const ClassCounts& counts);

// The last line of `topo diff`: PASS where the topologies are the same, else FAIL with how many
// GPUs or pairs differ and the first changed pair.
std::string diff_verdict_line(const TopologyDiff& d);

// The last line of `topo`: what it found, "PASS — 8 GPUs, 28 pairs: 12 NODE, 16 SYS".
std::string topology_verdict_line(const TopologySnapshot& t);

// "GPU0-GPU1".
std::string pair_name(std::size_t a, std::size_t b);

void to_json(nlohmann::json& j, const TopologyDiff& d);

// The text `topo diff` prints; names are the two inputs as the user gave them.
std::string format_diff_text(const TopologyDiff& d, const std::string& name_before,
                             const std::string& name_after);

}  // namespace p2p::topo
