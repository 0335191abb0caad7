// nccl-tests output (text or its JSON) as `p2pcheck import` reads it, format detection skipped
// so that every input reaches the parser.
#include "import/nccl_tests.hpp"

#include "fuzz/fuzz_input.hpp"
#include "fuzz/peer_tool_use.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const import::NcclTestsOutput out = import::parse_nccl_tests(text, fuzz::kSource, "all_reduce");
    fuzz::use_imported(import::nccl_tests_figures(out, fuzz::kSource));
  });
}
