// `p2pcheck vm plan`: GPUDirect cliques for a VFIO VM, planned from the host's real topology,
// with the traps in the VM's config and the settings for each hypervisor. `p2pcheck vm compare`:
// the VM before cliques, after, and its host, pair by pair.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_vm_command(CLI::App& root);

}  // namespace p2p::cli
