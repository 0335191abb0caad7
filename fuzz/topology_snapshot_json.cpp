// A topology snapshot (JSON) given to `topo --input`, `gate --expect/--input` or `topo diff`:
// loaded, then printed as text and JSON, diffed against itself and gated, as those commands do.
#include "fuzz/fuzz_input.hpp"
#include "fuzz/topology_use.hpp"
#include "topology/discovery/discovery.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return p2p::fuzz::feed(data, size, [](const std::string& text) {
    if (p2p::fuzz::starts_with(text, '<')) return;  // hwloc XML: the hwloc_xml target's
    p2p::fuzz::use_topology(p2p::topo::load_topology_text(text, p2p::fuzz::kSource));
  });
}
