// p2pBandwidthLatencyTest's output as `p2pcheck import` reads it, format detection skipped so
// that every input reaches the parser.
#include "import/p2p_bandwidth_latency.hpp"

#include "fuzz/fuzz_input.hpp"
#include "fuzz/peer_tool_use.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const import::P2pBandwidthLatencyOutput out =
        import::parse_p2p_bandwidth_latency(text, fuzz::kSource);
    fuzz::use_imported(import::p2p_bandwidth_latency_figures(out, fuzz::kSource));
  });
}
