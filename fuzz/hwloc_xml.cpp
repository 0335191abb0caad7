// An hwloc XML capture given to `topo --input` (or any topology option): read as the CLI reads
// it, hwloc in a forked child, so a crash or hang inside hwloc is InputError here as well.
// Coverage comes from this process only (the child's counters die with it): the checks before
// the child, the snapshot rebuilt from the child's JSON and everything downstream of it.
#include "fuzz/fuzz_input.hpp"
#include "fuzz/topology_use.hpp"
#include "topology/discovery/discovery.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return p2p::fuzz::feed(data, size, [](const std::string& text) {
    if (!p2p::fuzz::starts_with(text, '<'))
      return;  // snapshot JSON: the topology_snapshot_json target's
    p2p::fuzz::use_topology(p2p::topo::load_topology_text(text, p2p::fuzz::kSource));
  });
}
