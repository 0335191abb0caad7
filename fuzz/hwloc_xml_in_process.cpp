// hwloc reading XML in this process, without the child: for hunting inputs that crash or hang
// hwloc itself (the isolation turns those into InputError, so hwloc_xml never sees them) and
// for coverage of our reading of what hwloc loaded. It found the malformed XML in
// topology/tests/hostile/ within seconds; a crash inside libhwloc is expected here, so CI does
// not run it: scripts/fuzz.sh runs it only when named (scripts/fuzz.sh 60 hwloc_xml_in_process).
#include "fuzz/fuzz_input.hpp"
#include "fuzz/topology_use.hpp"
#include "topology/discovery/xml_isolation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return p2p::fuzz::feed(data, size, [](const std::string& text) {
    p2p::fuzz::use_topology(
        p2p::topo::snapshot_from_hwloc_xml_in_process(text, p2p::fuzz::kSource));
  });
}
