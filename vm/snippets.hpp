// The plan's cliques written for each hypervisor, ready to paste: Proxmox (qm set and the .conf
// lines, per hostpciN), libvirt (hostdev aliases and <qemu:override>), a plain QEMU command line
// (vfio-pci x-nv-gpudirect-clique) and cloud-hypervisor (x_nv_gpudirect_clique). GPUs left out of
// every clique are passed through without one. Where a VM config was given its device numbers,
// aliases, options and other args are kept. Pure.
#pragma once

#include <string>

#include "vm/clique_plan.hpp"
#include "vm/vm_config.hpp"

namespace p2p::vm {

struct Snippets {
  std::string proxmox;
  std::string libvirt;
  std::string qemu;
  std::string cloud_hypervisor;
};

// `config` may be null; `vmid` "" uses the config's, else "<vmid>".
Snippets write_snippets(const CliquePlan& p, const VmConfig* config, const std::string& vmid);

}  // namespace p2p::vm
