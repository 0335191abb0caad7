#include "vm/host_view.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "common/error.hpp"
#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"

namespace p2p::vm {

namespace {

// ACS control bits that send peer requests up to the root complex (pci_regs.h PCI_ACS_RR/CR/EC).
constexpr int kAcsRedirectBits = 0x04 | 0x08 | 0x20;
constexpr int kBridgeClass = 0x0604;  // class code >> 8

const doctor::PciFunction* pci_of(const doctor::Facts& f, const std::string& bdf) {
  if (!f.pci.present()) return nullptr;
  for (const auto& p : f.pci.value)
    if (doctor::normalize_bdf(p.bdf) == bdf) return &p;
  return nullptr;
}

bool redirects(const doctor::Bridge& b) {
  return b.acs_control.present() && (b.acs_control.value & kAcsRedirectBits) != 0;
}

std::string class_text(int class_code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%06x", class_code);
  return buf;
}

// The same device (bus and slot), another function: the GPU's own audio or USB-C function.
bool same_device(const std::string& a, const std::string& b) {
  return a.size() == b.size() && a.size() > 2 &&
         a.compare(0, a.size() - 2, b, 0, b.size() - 2) == 0;
}

void read_gpu_facts(const doctor::Facts& f, HostGpu& g) {
  if (const auto* p = pci_of(f, g.bdf))
    for (const auto& b : p->upstream)
      if (redirects(b)) g.acs_redirect.push_back(b.bdf);
  if (f.vfio.iommu_groups.present())
    for (const auto& group : f.vfio.iommu_groups.value) {
      if (doctor::normalize_bdf(group.gpu) != g.bdf) continue;
      g.group_read = true;
      g.iommu_group = group.group;
      for (const auto& m : group.members) {
        const std::string bdf = doctor::normalize_bdf(m.bdf);
        if (bdf == g.bdf || same_device(bdf, g.bdf) || (m.class_code >> 8) == kBridgeClass)
          continue;
        g.group_others.push_back(bdf + " (class " + class_text(m.class_code) + ")");
        g.group_other_bdfs.push_back(bdf);
      }
    }
  const auto faulting = doctor::gpus_named(f, doctor::log_signals(f).iommu_faults);
  g.iommu_faults = std::find(faulting.begin(), faulting.end(), g.bdf) != faulting.end();
}

std::string nvml_bdf(const doctor::Facts& f, int index) {
  for (const auto& d : f.nvml.devices)
    if (d.index == index) return doctor::normalize_bdf(d.pci_bus_id);
  return "";
}

}  // namespace

void add_facts_evidence(const doctor::Facts& f, const std::map<std::string, std::size_t>& index,
                        const std::string& whose, HostView& v) {
  const auto key = [&](const std::string& a,
                       const std::string& b) -> std::optional<std::pair<std::size_t, std::size_t>> {
    const auto ia = index.find(a), ib = index.find(b);
    if (ia == index.end() || ib == index.end() || ia->second == ib->second) return std::nullopt;
    return std::minmax(ia->second, ib->second);
  };
  const std::string from = whose.empty() ? "" : " (" + whose + ")";
  for (const auto& n : f.nvml.pairs) {
    const auto k = key(nvml_bdf(f, n.a), nvml_bdf(f, n.b));
    if (!k || !n.read || !n.write) continue;
    const bool ok = *n.read == 0 && *n.write == 0;
    v.pairs[*k].evidence.push_back(
        {!ok, EvidenceLevel::kDriver, "driver",
         ok ? "P2P OK on the host (driver)" + from
            : "the host's driver refuses P2P: " +
                  doctor::p2p_status_name(*n.read != 0 ? *n.read : *n.write) + from});
  }
  if (f.peer_copy.status != doctor::ProbeStatus::kCompleted ||
      f.peer_copy.mode != doctor::PeerCopyMode::kPairs)
    return;
  std::set<std::pair<std::size_t, std::size_t>> verified;
  for (const auto& c : f.peer_copy.pairs) {
    const std::string s = doctor::normalize_bdf(c.src_bus_id),
                      d = doctor::normalize_bdf(c.dst_bus_id);
    const auto k = key(s, d);
    if (!k) continue;
    if (c.went_wrong())
      v.pairs[*k].evidence.push_back({true, EvidenceLevel::kPeerCopy, "peer copy",
                                      "the host's peer copy failed (" + s + " -> " + d + ": copy " +
                                          to_string(c.copy_result) + ", SM store " +
                                          to_string(c.store_result) + ")" + from});
    else if (c.either_write_is(doctor::CopyResult::kOk) && verified.insert(*k).second)
      v.pairs[*k].evidence.push_back(
          {false, EvidenceLevel::kPeerCopy, "peer copy", "peer copy verified on the host" + from});
  }
}

namespace {

// What the doctor's facts add: the driver's and the peer copy's word per pair, ACS, IOMMU groups.
void read_facts(const doctor::Facts& f, const std::string& facts_source,
                const std::map<std::string, std::size_t>& index, HostView& v) {
  v.facts_source = facts_source;
  // An XML capture does not say where it was taken; facts saved there do.
  if (v.topology.environment.kind == "unknown") v.topology.environment = doctor::environment(f);
  const auto facts_gpus = doctor::gpus(f);
  const auto known = std::count_if(facts_gpus.begin(), facts_gpus.end(),
                                   [&](const auto& g) { return index.count(g.bdf) != 0; });
  if (!facts_gpus.empty() && known == 0)
    throw InputError(
        facts_source + ": none of its " + std::to_string(facts_gpus.size()) +
        " GPUs is in the topology: the facts and the topology must come from one host");
  if (known < static_cast<long>(facts_gpus.size()) || known < static_cast<long>(index.size()))
    v.notes.push_back("the facts know " + std::to_string(known) + " of the topology's " +
                      std::to_string(v.topology.gpus.size()) + " GPUs");
  for (auto& g : v.gpus)
    if (!g.bdf.empty()) read_gpu_facts(f, g);
  add_facts_evidence(f, index, "", v);
  for (std::size_t a = 0; a < v.gpus.size(); ++a)
    for (std::size_t b = a + 1; b < v.gpus.size(); ++b) {
      auto acs = acs_between(f, v.gpus[a].bdf, v.gpus[b].bdf);
      if (!acs.empty()) v.pairs[{a, b}].acs_redirect = std::move(acs);
    }
}

}  // namespace

const char* to_string(EvidenceLevel l) {
  switch (l) {
    case EvidenceLevel::kPeerCopy: return "peer_copy";
    case EvidenceLevel::kDriver: return "driver";
    case EvidenceLevel::kNvlink: return "nvlink";
    case EvidenceLevel::kPathClass: return "path_class";
  }
  return "path_class";
}

const HostPair* HostView::pair(std::size_t a, std::size_t b) const {
  const auto it = pairs.find(std::minmax(a, b));
  return it == pairs.end() ? nullptr : &it->second;
}

std::vector<std::string> acs_between(const doctor::Facts& f, const std::string& a,
                                     const std::string& b) {
  const auto* pa = pci_of(f, a);
  const auto* pb = pci_of(f, b);
  std::vector<std::string> out;
  if (pa == nullptr || pb == nullptr) return out;
  std::size_t common = 0;
  while (common < pa->upstream.size() && common < pb->upstream.size() &&
         pa->upstream[common].bdf == pb->upstream[common].bdf)
    ++common;
  if (common == 0) return out;  // they meet in the root complex: no switch port turns them
  for (const auto* chain : {&pa->upstream, &pb->upstream})
    if (common < chain->size() && redirects((*chain)[common])) out.push_back((*chain)[common].bdf);
  return out;
}

HostView make_host_view(const topo::TopologySnapshot& t, const doctor::Facts* facts,
                        const std::string& facts_source) {
  HostView v;
  v.topology = t;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    HostGpu g;
    g.bdf = t.gpus[i].pci_bus_id;
    g.name = t.gpus[i].name;
    if (!g.bdf.empty()) index[g.bdf] = i;
    v.gpus.push_back(g);
  }
  if (facts != nullptr) read_facts(*facts, facts_source, index, v);
  if (v.topology.environment.kind == "vm")
    v.notes.push_back(
        "this host is itself a VM: its tree is emulated; plan on the machine that "
        "runs the VM (or an LXC container there)");
  return v;
}

}  // namespace p2p::vm
