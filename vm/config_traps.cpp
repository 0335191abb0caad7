#include "vm/config_traps.hpp"

#include <algorithm>

#include "common/text.hpp"
#include "topology/gpudirect_capability.hpp"

namespace p2p::vm {

namespace {

bool proxmox(const VmConfig& c) { return c.kind == "proxmox"; }

void machine_traps(const VmConfig& c, std::vector<Trap>& out) {
  if (c.machine.find("q35") != std::string::npos) return;
  const std::string said =
      c.machine.empty()
          ? (proxmox(c) ? "no machine: line, so Proxmox starts it as i440fx" : "no machine type")
          : "machine " + c.machine;
  out.push_back({"machine", said + ": i440fx has no PCIe, so the GPUs sit on a conventional bus",
                 proxmox(c) ? "machine: q35 (qm set <vmid> --machine q35)"
                            : "<type arch='x86_64' machine='q35'>hvm</type>"});
}

void cpu_traps(const VmConfig& c, std::vector<Trap>& out) {
  if (!c.kvm_hidden.empty())
    out.push_back({"kvm_hidden",
                   c.kvm_hidden + ": the KVM signature is hidden, and the driver consults cliques "
                                  "only where it detects the hypervisor",
                   proxmox(c) ? "remove hidden=1 from cpu: (and kvm=off from args:)"
                              : "remove <kvm><hidden state='on'/></kvm> from <features>"});
  if (!c.hypervisor_flag_off.empty())
    out.push_back({"hypervisor_flag",
                   c.hypervisor_flag_off + ": the guest sees no hypervisor, so the driver ignores "
                                           "the cliques",
                   "keep the CPU's hypervisor flag"});
  for (const auto& s : c.emulated_switches)
    out.push_back({"emulated_switch",
                   "emulated PCIe switch, " + s +
                       ": QEMU's xio3130 is a TI bridge the driver does not trust, and cliques do "
                       "not need one",
                   "put each GPU on its own pcie-root-port"});
}

// The GPUs among the config's devices: all of them where the host is not known.
bool is_gpu(const HostView* host, const PassedDevice& d) {
  return host == nullptr ||
         std::any_of(host->gpus.begin(), host->gpus.end(),
                     [&](const HostGpu& g) { return !g.bdf.empty() && g.bdf == d.host_bdf; });
}

void device_traps(const VmConfig& c, const HostView* host, const Trap& conventional,
                  std::vector<Trap>& out) {
  for (const auto& d : c.devices) {
    if (!is_gpu(host, d)) continue;
    if (proxmox(c) && !d.address.empty() && !d.function_given)
      out.push_back({"no_function",
                     d.entry + ": " + d.address +
                         " names no function: Proxmox passes all its functions as " + d.entry +
                         ".0, " + d.entry + ".1, ..., and -set device." + d.entry +
                         ".x-nv-gpudirect-clique reaches nothing (-set cannot name a dotted id)",
                     d.entry + ": " + d.host_bdf + (d.pcie.value_or(false) ? ",pcie=1" : "")});
    if (proxmox(c) && d.pcie == std::optional<bool>(false))
      out.push_back({"no_pcie", d.entry + " without pcie=1: " + conventional.what,
                     "add pcie=1 to " + d.entry + " (with machine: q35)"});
    const std::string& bus = d.guest_bus;
    if (bus == "pci-bridge" || bus == "pcie-to-pci-bridge" || bus == "pci-root")
      out.push_back({"conventional_bus",
                     d.entry + " (" + d.host_bdf + ") sits on a " + bus + ": " + conventional.what,
                     "give it a pcie-root-port of its own"});
  }
}

bool has_device(const VmConfig& c, const std::string& id) {
  return std::any_of(c.devices.begin(), c.devices.end(),
                     [&](const PassedDevice& d) { return d.id == id; });
}

void clique_setting_traps(const VmConfig& c, std::vector<Trap>& out) {
  for (const auto& s : c.cliques) {
    if (s.clique < 0 || s.clique > topo::kMaxGpudirectClique)
      out.push_back({"clique_id",
                     s.how + " for " + s.target + " sets clique " +
                         (s.clique < 0 ? "'" + s.written + "', which is not a whole number"
                                       : std::to_string(s.clique)) +
                         ": QEMU refuses IDs outside 0-15 (four bits), and the VM does not start",
                     "a clique ID from 0 to 15"});
    if (s.how != "-device" && !has_device(c, s.target))
      out.push_back({"clique_target",
                     s.how + " sets a clique for device '" + s.target +
                         "', which this config does not define: it lands nowhere",
                     "name the device id the GPU has (" +
                         (c.devices.empty() ? std::string("none here") : c.devices.front().id) +
                         ", ...)"});
    if (s.how == "qemu:commandline -set")
      out.push_back({"commandline_set",
                     "<qemu:commandline> -set device." + s.target +
                         ": libvirt gives QEMU 6.2 and later -device as JSON, which -set does not "
                         "reach (libvirt issue 287)",
                     "<qemu:override> with the device's alias (libvirt 8.2 and later)"});
  }
  for (const auto& u : c.undeclared_qemu)
    out.push_back({"qemu_namespace", u + " without xmlns:qemu on <domain>: libvirt drops it",
                   "<domain type='kvm' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>"});
  for (const auto& p : c.entry_problems)
    out.push_back({"config_entry", p,
                   "give each key once, and each hostpciN a PCI address such as 0000:41:00.0"});
}

const PassedDevice* device_of(const VmConfig& c, const std::string& bdf) {
  for (const auto& d : c.devices)
    if (!bdf.empty() && d.host_bdf == bdf) return &d;
  return nullptr;
}

void host_traps(const VmConfig& c, const HostView& host, const CliquePlan* plan,
                std::vector<Trap>& out) {
  for (const auto& g : host.gpus) {
    const PassedDevice* d = device_of(c, g.bdf);
    if (d == nullptr) continue;
    for (const auto& other : g.group_other_bdfs)
      if (device_of(c, other) == nullptr)
        out.push_back(
            {"iommu_group",
             d->entry + " (" + g.bdf + ") shares IOMMU group " +
                 std::to_string(g.iommu_group.value_or(-1)) + " with " + other +
                 ", which this VM does not get: VFIO hands a VM whole groups",
             "pass " + other + " too, or move the GPU to a slot with a group of its own"});
  }
  if (plan == nullptr) return;
  for (const auto& g : plan->gpus) {
    const PassedDevice* d = device_of(c, g.bdf);
    if (d == nullptr) continue;
    for (const auto& s : c.cliques)
      if (s.target == d->id && (!g.clique || *g.clique != s.clique))
        out.push_back({"clique_differs",
                       d->id + " is set to clique " +
                           (s.written.empty() ? std::to_string(s.clique) : s.written) +
                           ", the plan " +
                           (g.clique ? "puts it in clique " + std::to_string(*g.clique)
                                     : std::string("leaves it out of every clique")),
                       "use the settings below"});
  }
}

}  // namespace

std::vector<Trap> check_traps(const VmConfig& c, const HostView* host, const CliquePlan* plan) {
  std::vector<Trap> out;
  const Trap conventional{
      "", "the GPU sits behind a conventional PCI bridge in the guest, not a PCIe root port", ""};
  machine_traps(c, out);
  cpu_traps(c, out);
  device_traps(c, host, conventional, out);
  clique_setting_traps(c, out);
  if (host != nullptr) host_traps(c, *host, plan, out);
  return out;
}

}  // namespace p2p::vm
