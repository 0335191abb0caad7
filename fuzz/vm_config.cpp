// A VM config given to `vm plan --vm-config`: a Proxmox <vmid>.conf or a libvirt domain XML, told
// apart by content, then checked for the traps.
#include "vm/vm_config.hpp"

#include "fuzz/fuzz_input.hpp"
#include "vm/config_traps.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return p2p::fuzz::feed(data, size, [](const std::string& text) {
    const auto config = p2p::vm::parse_vm_config(text, p2p::fuzz::kSource);
    (void)p2p::vm::check_traps(config, nullptr, nullptr);
  });
}
