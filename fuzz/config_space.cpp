// A GPU's PCI config space as sysfs `config` gives it (in a guest: the hypervisor's emulation),
// walked for the GPUDirect clique capability. Never bad input: every image has an answer.
#include "fuzz/fuzz_input.hpp"
#include "topology/gpudirect_capability.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return p2p::fuzz::feed(data, size, [](const std::string& bytes) {
    (void)p2p::topo::describe_gpudirect(p2p::topo::read_gpudirect_capability(bytes));
  });
}
