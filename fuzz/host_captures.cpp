// A host's P2P capture given to `vm plan --p2p` (nvidia-smi topo -p2p, p2pBandwidthLatencyTest,
// simpleP2P, nvbandwidth, p2pcheck documents or doctor facts, told apart by content) and the
// guest's `vm verify --format json` given to `vm compare --verify`.
#include "common/file_io.hpp"
#include "fuzz/fuzz_input.hpp"
#include "vm/clique_proof.hpp"
#include "vm/host_capture.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    try {
      (void)vm::parse_host_captures(text, fuzz::kSource);
    } catch (const InputError&) {
      // documented: not a capture; the same bytes as vm verify's document below
    }
    (void)vm::proof_pairs_from_json(parse_json_text(text, fuzz::kSource), fuzz::kSource);
  });
}
