// Round trip as a property, under libFuzzer: a file as `p2pcheck import FILE --json OUT` reads it,
// then OUT given to compare, report and topo --input; and the file as `topo --input FILE --save
// OUT` reads it (a capture or a snapshot), then OUT given back to topo --input. Refusing the file
// is allowed (InputError); writing a document that p2pcheck then refuses is a finding
// (import/testing/round_trip.hpp throws std::logic_error, which fuzz::feed reports).
#include "import/testing/round_trip.hpp"

#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    try {
      (void)testing::import_write_read_back(text, fuzz::kSource);
    } catch (const InputError&) {
      // refused at import: documented; the topology half still runs
    }
    // hwloc XML is read in a child process, a hundred times slower: fuzz_hwloc_xml covers it.
    if (!fuzz::starts_with(text, '<')) testing::topology_write_read_back(text, fuzz::kSource);
  });
}
