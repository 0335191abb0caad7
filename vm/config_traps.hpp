// The known traps in a VM config that silently defeat GPUDirect cliques (noonghunna/club-3090
// PR #890 measured the first three; the rest follow from how QEMU and libvirt build devices):
//   the KVM signature hidden (Proxmox hidden=1, libvirt <kvm><hidden>): the driver consults
//     cliques only where it detects the hypervisor;
//   a Proxmox hostpci entry without a function: the device id becomes hostpciN.0, which -set
//     cannot name, so the clique lands nowhere;
//   an emulated PCIe switch (QEMU's xio3130, a TI bridge the driver does not trust);
//   a machine type without PCIe (i440fx), a GPU on a conventional PCI bridge;
//   libvirt's -set through <qemu:commandline>, which does not reach JSON -device (QEMU 6.2+);
//   a clique ID over 15, or for a device the config does not have (QEMU refuses, or it is lost);
//   a GPU whose IOMMU group holds a device the VM does not get (VFIO hands out whole groups).
// Pure: a function of the config, the host and the plan.
#pragma once

#include <string>
#include <vector>

#include "vm/clique_plan.hpp"
#include "vm/host_view.hpp"
#include "vm/vm_config.hpp"

namespace p2p::vm {

struct Trap {
  std::string id;    // machine, kvm_hidden, hypervisor_flag, emulated_switch, no_function, no_pcie,
                     // conventional_bus, commandline_set, qemu_namespace, clique_id, clique_target,
                     // clique_differs, iommu_group, config_entry
  std::string what;  // one line: what the config says and why it defeats cliques
  std::string fix;   // what to write instead
};

// `host` and `plan` may be null (a config checked on its own).
std::vector<Trap> check_traps(const VmConfig& c, const HostView* host, const CliquePlan* plan);

}  // namespace p2p::vm
