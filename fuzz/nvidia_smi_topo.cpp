// Pasted `nvidia-smi topo -m` and `topo -p2p` captures, as `topo --input CAPTURE --p2p P2P` reads
// them: the matrix into a snapshot, the P2P letters onto it, then everything the topology
// commands do with a snapshot. One input holds both: the -m capture, then, after a line
// "====", the -p2p capture (fuzz/seeds/nvidia_smi_topo/ has such pairs, each two captures of
// import/tests/fixtures joined, named after both; a capture alone is read as either).
#include "topology/nvidia_smi_topo.hpp"

#include "fuzz/fuzz_input.hpp"
#include "fuzz/topology_use.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const auto cut = text.find("\n====\n");
    const std::string matrix = text.substr(0, cut);
    const std::string p2p_text = cut == std::string::npos ? text : text.substr(cut + 6);
    if (cut == std::string::npos && topo::looks_like_nvidia_smi_p2p(text)) {
      (void)topo::p2p_status_from_nvidia_smi(text, fuzz::kSource);
      return;
    }
    topo::TopologySnapshot t = topo::snapshot_from_nvidia_smi_topo(matrix, fuzz::kSource);
    topo::require_distinct_gpus(t, fuzz::kSource);
    if (cut != std::string::npos)
      topo::add_p2p_status(t, topo::p2p_status_from_nvidia_smi(p2p_text, fuzz::kSource),
                           fuzz::kSource);
    fuzz::use_topology(t);
  });
}
