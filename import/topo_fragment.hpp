// `nvidia-smi topo -m` and `topo -p2p` matrices as people paste them into threads: whole, cut
// after a few rows, or with the tabs between some NIC columns lost. Unlike the reader of whole
// captures (topology/nvidia_smi_topo.hpp, which the gate trusts), this one keeps what a fragment
// still tells: the GPUs whose every pair is known, their CPU and NUMA affinity, and which pairs
// the driver gives peer access. It gives no figures; it gives an imported document its topology.
#pragma once

#include <string>

#include "import/imported.hpp"

namespace p2p::import {

// InputError "<file>: not an nvidia-smi topo capture: <what>" for a matrix that is mangled (a
// cell that is no path class) or holds no complete GPU pair.
ImportedFigures topo_fragment_figures(const std::string& text, const std::string& file);

}  // namespace p2p::import
