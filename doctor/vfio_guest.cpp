// The guest's cliques as the facts record them: readings per GPU, NVML's status and the peer
// copy per pair of each clique, and the traps visible from inside.
#include "doctor/vfio_guest.hpp"

#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/rules/rules_util.hpp"

namespace p2p::doctor {

namespace {

const GpudirectReading* reading_of(const Facts& f, const std::string& bdf) {
  if (!f.vfio.gpudirect.present()) return nullptr;
  for (const auto& r : f.vfio.gpudirect.value)
    if (normalize_bdf(r.bdf) == bdf) return &r;
  return nullptr;
}

std::string nvml_bdf(const Facts& f, int index) {
  for (const auto& d : f.nvml.devices)
    if (d.index == index) return normalize_bdf(d.pci_bus_id);
  return "";
}

// NVML's verdict on a pair: read and write both OK, or the first status that is not.
void driver_status(const Facts& f, CliquePair& p) {
  for (const auto& n : f.nvml.pairs) {
    const std::string a = nvml_bdf(f, n.a), b = nvml_bdf(f, n.b);
    if (!((a == p.a && b == p.b) || (a == p.b && b == p.a))) continue;
    if (!n.read || !n.write) return;
    p.driver_p2p = *n.read == 0 && *n.write == 0;
    if (!*p.driver_p2p) p.driver_reason = p2p_status_name(*n.read != 0 ? *n.read : *n.write);
    return;
  }
}

// The peer copy of both directions: verified when each ran and arrived intact.
void copy_status(const Facts& f, CliquePair& p) {
  int verified = 0;
  p.copy = PairCopy::kNotRun;
  if (f.peer_copy.status != ProbeStatus::kCompleted || f.peer_copy.mode != PeerCopyMode::kPairs)
    return;
  for (const auto& c : f.peer_copy.pairs) {
    const std::string s = normalize_bdf(c.src_bus_id), d = normalize_bdf(c.dst_bus_id);
    if (!((s == p.a && d == p.b) || (s == p.b && d == p.a))) continue;
    if (c.went_wrong()) {
      p.failures.push_back("GPU" + std::to_string(c.src) + "->GPU" + std::to_string(c.dst) + " (" +
                           s + " -> " + d + "): copy " + to_string(c.copy_result) + ", SM store " +
                           to_string(c.store_result));
    } else if (c.either_write_is(CopyResult::kOk)) {
      ++verified;
    }
  }
  if (!p.failures.empty())
    p.copy = PairCopy::kFailed;
  else if (verified >= 2)
    p.copy = PairCopy::kVerified;
}

bool contains_text(const std::string& s, const char* what) {
  return s.find(what) != std::string::npos;
}

}  // namespace

GuestCliques guest_cliques(const Facts& f) {
  GuestCliques g;
  const auto all = gpus(f);
  g.gpus = static_cast<int>(all.size());
  for (const auto& gpu : all) {
    const GpudirectReading* r = reading_of(f, gpu.bdf);
    if (r == nullptr) {
      g.unknown.push_back(gpu.bdf);
      continue;
    }
    g.checked = true;
    g.detail.push_back(gpu.bdf + ": " + topo::describe_gpudirect(r->capability));
    const auto& c = r->capability;
    if (c.state == topo::GpudirectState::kPresent && c.clique)
      g.cliques[*c.clique].push_back(gpu.bdf);
    else if (c.state == topo::GpudirectState::kAbsent)
      g.without.push_back(gpu.bdf);
    else
      g.unknown.push_back(gpu.bdf);
  }
  for (const auto& [id, members] : g.cliques)
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t j = i + 1; j < members.size(); ++j) {
        CliquePair p;
        p.clique = id;
        p.a = members[i];
        p.b = members[j];
        driver_status(f, p);
        copy_status(f, p);
        g.pairs.push_back(std::move(p));
      }
  return g;
}

std::vector<std::string> guest_traps(const Facts& f) {
  std::vector<std::string> out;
  const auto& e = f.environment;
  const bool qemu = contains_text(e.dmi_sys_vendor, "QEMU") ||
                    contains_text(e.dmi_product_name, "Q35") ||
                    contains_text(e.dmi_product_name, "i440FX");
  // CPUID is read only by a live run (a --root capture cannot), so only then is an empty
  // signature evidence.
  const bool cpuid_read = f.source.rfind("root ", 0) != 0;
  if (qemu && !e.cpu_hypervisor_flag)
    out.push_back(
        "the CPU's hypervisor flag is cleared on a QEMU machine (libvirt <feature policy='disable' "
        "name='hypervisor'/>, -cpu ...,hypervisor=off): the driver honours cliques only where it "
        "detects the hypervisor");
  else if (qemu && cpuid_read && e.hypervisor_vendor != "KVMKVMKVM")
    out.push_back(
        "the KVM signature is hidden (CPUID shows " +
        (e.hypervisor_vendor.empty() ? std::string("none") : "'" + e.hypervisor_vendor + "'") +
        " on a QEMU machine): Proxmox cpu hidden=1 / kvm=off, libvirt <kvm><hidden state='on'/>; "
        "the driver honours cliques only where it detects the hypervisor");
  if (contains_text(e.dmi_product_name, "i440FX"))
    out.push_back("machine type i440fx (" + e.dmi_product_name +
                  "): no PCIe in the guest; use q35 (Proxmox machine: q35, libvirt "
                  "machine='pc-q35-...')");
  for (const auto& g : gpus(f))
    if (g.pci != nullptr && g.pci->upstream.size() >= 2)
      out.push_back(g.bdf + " sits behind " + std::to_string(g.pci->upstream.size()) +
                    " emulated bridges (a PCIe switch such as QEMU's xio3130, which the driver "
                    "does not trust): give each GPU its own pcie-root-port");
  return out;
}

std::vector<std::string> gpus_to_take_out(const std::vector<CliquePair>& failed) {
  std::map<std::string, int> count;
  for (const auto& p : failed) {
    ++count[p.a];
    ++count[p.b];
  }
  int most = 0;
  for (const auto& [bdf, n] : count) most = std::max(most, n);
  std::vector<std::string> out;
  for (const auto& [bdf, n] : count)
    if (n == most) out.push_back(bdf);
  return out;
}

std::string clique_plan_command(const GuestCliques& g) {
  return "on the host: p2pcheck vm plan --gpus <the host PCI addresses of these " +
         std::to_string(g.gpus) +
         " GPUs> --vm-config /etc/pve/qemu-server/<vmid>.conf (or the libvirt domain XML), then "
         "add the x-nv-gpudirect-clique settings it prints (Proxmox args: -set "
         "device.hostpciN.x-nv-gpudirect-clique=C; libvirt <qemu:override>; QEMU -device "
         "vfio-pci,...,x-nv-gpudirect-clique=C; cloud-hypervisor x_nv_gpudirect_clique=C), restart "
         "the VM and run p2pcheck doctor here again: it must verify the peer copy on every pair of "
         "each clique";
}

}  // namespace p2p::doctor
