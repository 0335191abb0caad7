// The CUDA sample p2pBandwidthLatencyTest: its unidirectional and bidirectional bandwidth
// matrices and its latency matrices, with P2P disabled and enabled (writes, and reads with
// --p2p_read). Copies are numElems 4-byte integers (40,000,000 by default: 160 MB).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "import/imported.hpp"

namespace p2p::import {

struct SampleMatrix {
  std::string title;  // "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)"
  std::string timer;  // latency only: "GPU" (events) or "CPU" (host timer); "" for bandwidth
  std::vector<std::vector<double>> cells;
};

struct P2pBandwidthLatencyOutput {
  std::vector<std::string> devices;            // "NVIDIA H100 80GB HBM3" by index; empty where
                                               // a paste left the Device lines out
  std::size_t gpus = 0;                        // the device count, or the matrices' width
  std::vector<std::vector<int>> connectivity;  // the "P2P Connectivity Matrix" (1 = can access)
  std::vector<SampleMatrix> matrices;
  std::vector<std::string> notes;  // what a paste left out: "\"...\": cut after 1 of 2 rows"
};

bool looks_like_p2p_bandwidth_latency(const std::string& text);

// The output whole or pasted in pieces: the Device lines are not needed (the matrices' headers
// give the GPU count), and a matrix cut after some rows keeps them (said in `notes`). InputError
// "<source>: not p2pBandwidthLatencyTest output: <what>" for a mangled matrix (a row out of
// order, a cell that is no number, headers of different widths) or none at all.
P2pBandwidthLatencyOutput parse_p2p_bandwidth_latency(const std::string& text,
                                                      const std::string& source);

// Unidirectional writes -> ce_unidir_write, reads -> ce_unidir_read, P2P disabled -> staged (the
// path without peer access), the diagonal -> device_local_ce, bidirectional P2P enabled ->
// ce_bidir sum; the rest (P2P-disabled bidirectional, the memcpy latencies, which time a small
// cudaMemcpy and not a dependent load as p2pcheck's latency cases do) keep names of their own.
ImportedFigures p2p_bandwidth_latency_figures(const P2pBandwidthLatencyOutput& out,
                                              const std::string& file,
                                              std::uint64_t copy_bytes = 40000000ull * 4);

}  // namespace p2p::import
