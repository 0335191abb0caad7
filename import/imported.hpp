// What one peer tool's output becomes: figures in p2pcheck's results schema, each with its
// source, plus what the output says about the host. The import command merges these into one
// results document (written_by "import").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "document/nccl_run.hpp"
#include "topology/snapshot.hpp"

namespace p2p::import {

struct ImportedFigures {
  doc::ImportedFile file;
  std::string hostname;
  std::string nvidia_driver_version;  // "580.159.04"
  std::string cuda_driver_version;    // "13.0"
  std::vector<doc::GpuRecord> gpus;
  std::vector<doc::BandwidthResult> bandwidth;
  std::vector<doc::LatencyResult> latency;
  std::optional<doc::NcclRun> nccl;  // nccl-tests rows
  // [i][j] over `gpus`: can GPU i access GPU j's memory (false on the diagonal, as bench writes
  // it); empty where the output does not say.
  std::vector<std::vector<bool>> p2p_access;
  // An nvidia-smi topo -m capture: the topology it tells (GPUs in nvidia-smi's numbering).
  std::optional<topo::TopologySnapshot> topology;
  // The lines of the paste it was read from (1-based, inclusive); 0 when the whole file was one
  // output.
  int first_line = 0;
  int last_line = 0;
};

// "gpu3".
std::string gpu_name(int index);

}  // namespace p2p::import
