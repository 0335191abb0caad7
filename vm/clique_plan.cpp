#include "vm/clique_plan.hpp"

#include <algorithm>
#include <map>

#include "common/error.hpp"
#include "common/text.hpp"
#include "topology/classify.hpp"
#include "topology/gpudirect_capability.hpp"

namespace p2p::vm {

namespace {

PairJudgement verdict(PairJudgement j, bool p2p, std::string basis, std::string reason) {
  j.p2p = p2p;
  j.basis = std::move(basis);
  j.reason = std::move(reason);
  return j;
}

// Without the host's word, the path class decides: the driver allows P2P below one switch and
// between root ports of one host bridge on most CPUs, and refuses it across sockets.
PairJudgement by_class(PairJudgement j, topo::PathClass c) {
  using topo::PathClass;
  switch (c) {
    case PathClass::kPix: return verdict(j, true, "topology", "one PCIe switch (PIX)");
    case PathClass::kPxb:
      return verdict(j, true, "topology", "PCIe switches below one root port (PXB)");
    case PathClass::kPhb:
      return verdict(j, true, "topology",
                     "root ports of one host bridge (PHB): the driver allows P2P there on most "
                     "CPUs; the host's doctor facts confirm it");
    case PathClass::kNode:
      return verdict(j, false, "topology",
                     "different host bridges of one socket (NODE): only the host's driver can say "
                     "(give --facts saved by p2pcheck doctor on the host)");
    default:
      return verdict(j, false, "topology",
                     "across sockets (SYS): no P2P over the SMP interconnect on most platforms");
  }
}

std::string acs_note(const HostPair* hp) {
  if (hp == nullptr || hp->acs_redirect.empty()) return "";
  return " (ACS redirects at " + join(hp->acs_redirect) + ": through the root complex)";
}

// The plan's pairs by their two GPUs, each found in constant time (a scan of the pair list per
// question made a plan grow as n^4 log n in GPUs: 384 GPUs took over 30 s).
class PairLookup {
 public:
  explicit PairLookup(const CliquePlan& p) : pairs_(p.pairs) {
    for (const auto& j : pairs_) n_ = std::max(n_, j.b + 1);
    at_.assign(n_ * n_, -1);
    for (std::size_t k = 0; k < pairs_.size(); ++k)
      at_[pairs_[k].a * n_ + pairs_[k].b] = static_cast<long>(k);
  }
  bool ok(std::size_t a, std::size_t b) const {
    const PairJudgement* j = find(a, b);
    return j != nullptr && j->p2p;
  }
  const PairJudgement& judgement(std::size_t a, std::size_t b) const {
    if (const PairJudgement* j = find(a, b)) return *j;
    throw std::logic_error("pair not judged");
  }

 private:
  const PairJudgement* find(std::size_t a, std::size_t b) const {
    const std::size_t lo = std::min(a, b), hi = std::max(a, b);
    if (hi >= n_ || at_[lo * n_ + hi] < 0) return nullptr;
    return &pairs_[static_cast<std::size_t>(at_[lo * n_ + hi])];
  }
  const std::vector<PairJudgement>& pairs_;
  std::size_t n_ = 0;
  std::vector<long> at_;  // n_ x n_, the pair's position in pairs_ (a < b), -1 for none
};

// Greedy, most-connected GPUs first: each joins the first clique whose every member it reaches.
std::vector<std::vector<std::size_t>> group(const PairLookup& pairs,
                                            const std::vector<std::size_t>& candidates) {
  std::map<std::size_t, long> degree;
  for (std::size_t g : candidates)
    degree[g] = std::count_if(candidates.begin(), candidates.end(),
                              [&](std::size_t o) { return o != g && pairs.ok(g, o); });
  std::vector<std::size_t> order = candidates;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return degree[x] > degree[y]; });
  std::vector<std::vector<std::size_t>> cliques;
  for (std::size_t g : order) {
    auto fits = std::find_if(cliques.begin(), cliques.end(), [&](const auto& c) {
      return std::all_of(c.begin(), c.end(), [&](std::size_t m) { return pairs.ok(g, m); });
    });
    if (fits != cliques.end())
      fits->push_back(g);
    else
      cliques.push_back({g});
  }
  cliques.erase(
      std::remove_if(cliques.begin(), cliques.end(), [](const auto& c) { return c.size() < 2; }),
      cliques.end());
  return cliques;
}

void describe_host_facts(const HostView& v, PlannedGpu& g,
                         const std::vector<std::size_t>& selected) {
  const HostGpu& h = v.gpus[g.index];
  if (!v.has_facts()) return;
  g.facts.push_back(h.acs_redirect.empty() ? "ACS: no redirection above it"
                                           : "ACS redirects at " + join(h.acs_redirect));
  if (!h.group_read) {
    g.facts.push_back("IOMMU group not recorded (facts saved before p2pcheck read groups)");
  } else if (!h.iommu_group) {
    g.facts.push_back("no IOMMU group (the IOMMU is off: VFIO needs it on)");
  } else {
    g.facts.push_back(
        "IOMMU group " + std::to_string(*h.iommu_group) +
        (h.group_others.empty() ? " (no other device)" : " with " + join(h.group_others)));
  }
  for (const auto& other : h.group_other_bdfs) {
    const bool going = std::any_of(selected.begin(), selected.end(),
                                   [&](std::size_t s) { return v.gpus[s].bdf == other; });
    if (!going)
      g.warnings.push_back("IOMMU group " + std::to_string(*h.iommu_group) + " also holds " +
                           other +
                           ", which does not go to this VM: VFIO hands a VM whole groups (pass it "
                           "too, or move the GPU to a slot with a group of its own)");
  }
  if (h.iommu_faults)
    g.warnings.push_back(
        "the host's kernel log shows the IOMMU refusing its DMA: left out of "
        "every clique until that is fixed");
}

// One line per kind of relation, peers that share it listed together: "with GPU1, GPU2: PIX, ...".
void explain(const CliquePlan& p, const PairLookup& pairs, PlannedGpu& g) {
  std::vector<std::pair<std::string, std::vector<std::string>>> lines;
  for (const auto& other : p.gpus) {
    if (other.index == g.index) continue;
    const auto& j = pairs.judgement(g.index, other.index);
    const bool same = g.clique && other.clique == g.clique;
    const std::string key =
        std::string(same ? "with " : "not with ") + "|" + j.path + ", " + j.reason;
    auto it =
        std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == key; });
    if (it == lines.end()) it = lines.insert(lines.end(), {key, {}});
    it->second.push_back("GPU" + std::to_string(other.index));
  }
  for (const auto& [key, peers] : lines) {
    const auto bar = key.find('|');
    g.why.push_back(key.substr(0, bar) + join(peers) + ": " + key.substr(bar + 1));
  }
}

}  // namespace

std::string gpu_label(const HostView& v, std::size_t index) {
  const std::string& bdf = v.gpus.at(index).bdf;
  return "GPU" + std::to_string(index) + (bdf.empty() ? "" : " (" + bdf + ")");
}

PairJudgement judge_pair(const HostView& v, std::size_t a, std::size_t b) {
  PairJudgement j;
  j.a = std::min(a, b);
  j.b = std::max(a, b);
  const auto& t = v.topology;
  j.path = topo::matrix_label(t, j.a, j.b);
  const HostPair* hp = v.pair(j.a, j.b);
  const HostGpu& ga = v.gpus[j.a];
  const HostGpu& gb = v.gpus[j.b];
  const std::string acs = acs_note(hp);
  if (hp != nullptr && hp->copy == doctor::PairCopy::kFailed)
    return verdict(j, false, "peer copy", "the host's peer copy failed (" + hp->copy_detail + ")");
  // One group means no ACS between them: the switch turns their peer requests by address, and in
  // a VM those are guest addresses the IOMMU never translates.
  if (ga.iommu_group && ga.iommu_group == gb.iommu_group)
    return verdict(j, false, "iommu group",
                   "one IOMMU group (" + std::to_string(*ga.iommu_group) +
                       "): their peer requests would turn in the switch with the guest's "
                       "untranslated addresses; enable ACS on its downstream ports");
  if (t.nvlink_count.size() > j.a && t.nvlink_count[j.a][j.b] > 0)
    return verdict(j, true, "topology", "NVLink (" + j.path + ")");
  if (hp != nullptr && hp->copy == doctor::PairCopy::kVerified)
    return verdict(j, true, "peer copy", "peer copy verified on the host" + acs);
  if (hp != nullptr && hp->driver_p2p)
    return *hp->driver_p2p ? verdict(j, true, "driver", "P2P OK on the host (driver)" + acs)
                           : verdict(j, false, "driver",
                                     "the host's driver refuses P2P: " + hp->driver_reason + acs);
  if (const auto code = topo::p2p_status_of(t, j.a, j.b))
    return *code == "OK" ? verdict(j, true, "nvidia-smi", "OK in the host's nvidia-smi topo -p2p")
                         : verdict(j, false, "nvidia-smi",
                                   "the host's nvidia-smi topo -p2p says " +
                                       topo::describe_p2p_status(*code));
  return by_class(j, t.pcie_matrix[j.a][j.b]);
}

bool CliquePlan::complete() const {
  return gpus.size() < 2 ||
         std::all_of(gpus.begin(), gpus.end(), [](const PlannedGpu& g) { return g.clique; });
}

CliquePlan make_clique_plan(const HostView& v, const std::vector<std::size_t>& selected,
                            int first_clique) {
  if (first_clique < 0 || first_clique > topo::kMaxGpudirectClique)
    throw InputError("--first-clique " + std::to_string(first_clique) +
                     ": clique IDs are 0-15 (four bits in the capability)");
  CliquePlan p;
  for (std::size_t i = 0; i < selected.size(); ++i)
    for (std::size_t k = i + 1; k < selected.size(); ++k)
      p.pairs.push_back(judge_pair(v, selected[i], selected[k]));
  std::vector<std::size_t> candidates;
  for (std::size_t s : selected)
    if (!v.gpus[s].iommu_faults) candidates.push_back(s);
  const PairLookup pairs(p);
  auto cliques = group(pairs, candidates);
  std::map<std::size_t, std::size_t> position_of;
  for (std::size_t i = 0; i < selected.size(); ++i) position_of.emplace(selected[i], i);
  const auto position = [&](std::size_t g) { return position_of.at(g); };
  for (auto& c : cliques)
    std::sort(c.begin(), c.end(),
              [&](std::size_t x, std::size_t y) { return position(x) < position(y); });
  std::sort(cliques.begin(), cliques.end(), [&](const auto& x, const auto& y) {
    return position(x.front()) < position(y.front());
  });
  const int last = first_clique + static_cast<int>(cliques.size()) - 1;
  if (last > topo::kMaxGpudirectClique)
    throw InputError("--first-clique " + std::to_string(first_clique) + ": the plan needs " +
                     std::to_string(cliques.size()) + " cliques, up to ID " + std::to_string(last) +
                     ", but clique IDs are 0-15");
  std::map<std::size_t, int> id_of;
  for (std::size_t k = 0; k < cliques.size(); ++k) {
    p.cliques.push_back({first_clique + static_cast<int>(k), cliques[k]});
    for (std::size_t g : cliques[k]) id_of[g] = first_clique + static_cast<int>(k);
  }
  for (std::size_t s : selected) {
    PlannedGpu g;
    g.index = s;
    g.bdf = v.gpus[s].bdf;
    if (id_of.count(s)) g.clique = id_of[s];
    describe_host_facts(v, g, selected);
    p.gpus.push_back(g);
  }
  for (auto& g : p.gpus) explain(p, pairs, g);
  if (!v.has_facts())
    p.notes.push_back(
        "judged from the topology alone: no doctor facts, so the host driver's P2P status, ACS, "
        "IOMMU groups and the peer copy are unknown (run p2pcheck doctor --save-facts on the host "
        "and give --facts)");
  p.notes.insert(p.notes.end(), v.notes.begin(), v.notes.end());
  return p;
}

}  // namespace p2p::vm
