// Where snapshots come from: an hwloc XML capture, this host, or any file a user names.
// Everything after this layer is a pure function of the snapshot.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "topology/snapshot.hpp"

namespace p2p::topo {

// From `lstopo --of xml` (hwloc 1.x or 2.x format). An XML says nothing about where it was
// taken, so the environment is "unknown" with evidence "from XML". InputError naming the file
// when it is unreadable, not hwloc XML, of hwloc XML version 3.x, rejected by hwloc, or
// without an NVIDIA GPU. hwloc reads the XML in a forked child (xml_isolation.hpp): a crash or
// hang inside hwloc is an InputError naming the file too.
TopologySnapshot snapshot_from_hwloc_xml(const std::string& path);
// The same from the file's text, read once by the caller; `path` names it in errors.
TopologySnapshot snapshot_from_hwloc_xml_text(const std::string& text, const std::string& path);

// What a caller that has NVML (loaded at run time elsewhere) can add to live discovery.
struct LiveProbes {
  // NVLink links per GPU pair, indexed like the GPUs given; nullopt where NVML cannot tell.
  // Replaces what hwloc's own NVML backend (if built in) recorded.
  std::function<std::optional<std::vector<std::vector<int>>>(const std::vector<Gpu>&)>
      nvlink_counts;
  // nvmlDeviceGetVirtualizationMode of the first GPU as text ("Pass-Through", "vGPU", ...).
  std::function<std::string()> virtualization_mode;
};

// The running host: hwloc for the tree, sysfs for current and maximum link speed and width,
// /proc/driver/nvidia for names hwloc lacks, environment from read_environment_facts("/").
// NoGpuError when the host has no NVIDIA GPU.
TopologySnapshot snapshot_from_this_host(const LiveProbes& probes = {});

// --input: an hwloc XML or a p2pcheck snapshot (JSON), told apart by the first character, or a
// text capture of `nvidia-smi topo -m` (with any `topo -p2p` matrix in the same file), told by
// its content.
TopologySnapshot load_topology(const std::string& path);
// The same for text already read (the file is read once: it may be a pipe).
TopologySnapshot load_topology_text(const std::string& text, const std::string& path);
// InputError when two GPUs of `t` share a PCI bus id (a crafted or hand-edited file).
void require_distinct_gpus(const TopologySnapshot& t, const std::string& source);

// --p2p FILE: adds an `nvidia-smi topo -p2p` capture's per-pair status to the snapshot.
void apply_p2p_status_file(TopologySnapshot& t, const std::string& p2p_path);

// Replaces the snapshot's environment with classify_environment() of EnvironmentFacts JSON
// recorded where the XML was captured (a sidecar, as `doctor` writes them).
void apply_environment_facts_file(TopologySnapshot& t, const std::string& facts_path);

}  // namespace p2p::topo
