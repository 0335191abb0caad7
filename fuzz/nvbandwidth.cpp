// nvbandwidth's output (text or --json) as `p2pcheck import` reads it, format detection skipped
// so that every input reaches the parser.
#include "import/nvbandwidth.hpp"

#include "fuzz/fuzz_input.hpp"
#include "fuzz/peer_tool_use.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const import::NvbandwidthOutput out = import::parse_nvbandwidth(text, fuzz::kSource);
    fuzz::use_imported(import::nvbandwidth_figures(out, fuzz::kSource));
  });
}
