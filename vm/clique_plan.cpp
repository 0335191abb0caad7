#include "vm/clique_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/error.hpp"
#include "common/text.hpp"
#include "hardware/model_match.hpp"
#include "topology/classify.hpp"
#include "topology/gpudirect_capability.hpp"

namespace p2p::vm {

namespace {

PairJudgement verdict(PairJudgement j, bool p2p, std::string basis, std::string reason,
                      std::optional<EvidenceLevel> level = std::nullopt) {
  j.p2p = p2p;
  j.basis = std::move(basis);
  j.reason = std::move(reason);
  j.level = p2p ? level : std::nullopt;
  return j;
}

// The model's name where its driver refuses P2P over PCIe (GeForce): the path class cannot join
// such a pair; only the host's own evidence can.
std::string refused_model(const HostView& v, std::size_t i) {
  const auto& kb = hw::builtin_knowledge_base();
  const auto& t = v.topology.gpus[i];
  char pci_id[16] = "";
  if (t.device_id != 0) std::snprintf(pci_id, sizeof pci_id, "%04x:%04x", t.vendor_id, t.device_id);
  for (const std::string& id : {v.gpus[i].name, std::string(pci_id)}) {
    if (id.empty()) continue;
    const hw::ModelMatch m = hw::identify_model(kb, id);
    if (m.model != nullptr && m.model->p2p_over_pcie == hw::P2pPolicy::kRefusedByStockDriver)
      return m.model->name;
  }
  return "";
}

// Without the host's word, the path class decides: the driver allows P2P below one switch and
// between root ports of one host bridge on most CPUs, and refuses it across sockets. Such a
// clique is provisional: nothing from the host proves it.
PairJudgement by_class(const HostView& v, PairJudgement j, topo::PathClass c) {
  using topo::PathClass;
  for (std::size_t g : {j.a, j.b})
    if (const std::string model = refused_model(v, g); !model.empty() && c != PathClass::kNvLink)
      return verdict(j, false, "model",
                     model +
                         ": its stock driver refuses P2P over PCIe; only the host's own "
                         "evidence can join the pair (--p2p, --facts)");
  constexpr auto kGuess = EvidenceLevel::kPathClass;
  switch (c) {
    case PathClass::kPix: return verdict(j, true, "topology", "one PCIe switch (PIX)", kGuess);
    case PathClass::kPxb:
      return verdict(j, true, "topology", "PCIe switches below one root port (PXB)", kGuess);
    case PathClass::kPhb:
      return verdict(j, true, "topology",
                     "root ports of one host bridge (PHB): the driver allows P2P there on most "
                     "CPUs",
                     kGuess);
    case PathClass::kNode:
      return verdict(j, false, "topology",
                     "different host bridges of one socket (NODE): only the host's driver can say "
                     "(give --p2p or --facts from the host)");
    default:
      return verdict(j, false, "topology",
                     "across sockets (SYS): no P2P over the SMP interconnect on most platforms "
                     "(the host's driver can say otherwise: --p2p or --facts)");
  }
}

// Which evidence against a pair speaks first: a failed copy, then what no driver answer can
// overrule (one IOMMU group, ACS in the switch), then refusals.
int against_rank(const PairEvidence& e) {
  if (e.level == EvidenceLevel::kPeerCopy) return 0;
  if (e.basis == "iommu group") return 1;
  if (e.basis == "ACS") return 2;
  return 3;
}

// Everything the host says about the pair: its facts and captures, the nvidia-smi topo -p2p
// statuses pasted into its topology, and what its tree itself rules out or gives (one IOMMU
// group, ACS in the switch between them, NVLink).
std::vector<PairEvidence> gather(const HostView& v, const PairJudgement& j) {
  std::vector<PairEvidence> out;
  if (const HostPair* hp = v.pair(j.a, j.b)) {
    out = hp->evidence;
    if (!hp->acs_redirect.empty())
      out.push_back({true, EvidenceLevel::kDriver, "ACS",
                     "ACS at " + join(hp->acs_redirect) +
                         " redirects their peer requests up to the root complex, where P2P "
                         "between switch ports hangs or corrupts data on many hosts"});
  }
  const HostGpu& ga = v.gpus[j.a];
  const HostGpu& gb = v.gpus[j.b];
  // One group means no ACS between them: the switch turns their peer requests by address, and in
  // a VM those are guest addresses the IOMMU never translates.
  if (ga.iommu_group && ga.iommu_group == gb.iommu_group)
    out.push_back({true, EvidenceLevel::kDriver, "iommu group",
                   "one IOMMU group (" + std::to_string(*ga.iommu_group) +
                       "): their peer requests would turn in the switch with the guest's "
                       "untranslated addresses; enable ACS on its downstream ports"});
  const auto& t = v.topology;
  if (t.nvlink_count.size() > j.a && t.nvlink_count[j.a][j.b] > 0)
    out.push_back({false, EvidenceLevel::kNvlink, "topology", "NVLink (" + j.path + ")"});
  for (const auto& s : t.p2p_status) {
    if (s.cells.size() <= j.b || s.cells[j.a].size() <= j.b) continue;
    for (const std::string& code : {s.cells[j.a][j.b], s.cells[j.b][j.a]}) {
      if (code == "OK")
        out.push_back({false, EvidenceLevel::kDriver, "nvidia-smi topo -p2p",
                       "OK in the host's nvidia-smi topo -p2p (" + s.capability + ")"});
      else if (code != "X" && !code.empty())
        out.push_back({true, EvidenceLevel::kDriver, "nvidia-smi topo -p2p",
                       "the host's nvidia-smi topo -p2p (" + s.capability + ") says " +
                           topo::describe_p2p_status(code)});
      if (code != "OK") break;  // one direction refused says it all
    }
  }
  return out;
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
  // `guesses`: pairs resting on the path class alone count too.
  bool ok(std::size_t a, std::size_t b, bool guesses = false) const {
    const PairJudgement* j = find(a, b);
    return j != nullptr && j->p2p && (guesses || j->level != EvidenceLevel::kPathClass);
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
                                            const std::vector<std::size_t>& candidates,
                                            bool guesses) {
  std::map<std::size_t, long> degree;
  for (std::size_t g : candidates)
    degree[g] = std::count_if(candidates.begin(), candidates.end(),
                              [&](std::size_t o) { return o != g && pairs.ok(g, o, guesses); });
  std::vector<std::size_t> order = candidates;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return degree[x] > degree[y]; });
  std::vector<std::vector<std::size_t>> cliques;
  for (std::size_t g : order) {
    auto fits = std::find_if(cliques.begin(), cliques.end(), [&](const auto& c) {
      return std::all_of(c.begin(), c.end(),
                         [&](std::size_t m) { return pairs.ok(g, m, guesses); });
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

// The provisional group of each GPU (by host index), -1 for none: asked of every pair below.
std::vector<int> provisional_group_of(const CliquePlan& p, std::size_t host_gpus) {
  std::vector<int> out(host_gpus, -1);
  for (std::size_t k = 0; k < p.provisional_groups.size(); ++k)
    for (std::size_t g : p.provisional_groups[k]) out.at(g) = static_cast<int>(k);
  return out;
}

// One line per kind of relation, peers that share it listed together: "with GPU1, GPU2: PIX, ...".
// Every pair of the VM is looked at once per GPU, so nothing here is built per pair but the
// peer's index (1,024 GPUs: a million pairs).
void explain(const CliquePlan& p, const PairLookup& pairs, const std::vector<int>& provisional_of,
             PlannedGpu& g) {
  struct Relation {
    const char* kind;
    const PairJudgement* judgement;
    std::vector<std::size_t> peers;
  };
  std::vector<Relation> lines;
  for (const auto& other : p.gpus) {
    if (other.index == g.index) continue;
    const auto& j = pairs.judgement(g.index, other.index);
    const bool same = g.clique && other.clique == g.clique;
    const bool guessed =
        provisional_of[g.index] >= 0 && provisional_of[g.index] == provisional_of[other.index];
    const char* kind = same ? "with " : guessed ? "provisionally with " : "not with ";
    auto it = std::find_if(lines.begin(), lines.end(), [&](const Relation& l) {
      return l.kind == kind && l.judgement->path == j.path && l.judgement->reason == j.reason;
    });
    if (it == lines.end()) it = lines.insert(lines.end(), Relation{kind, &j, {}});
    it->peers.push_back(other.index);
  }
  for (const auto& l : lines) {
    std::vector<std::string> peers;
    peers.reserve(l.peers.size());
    for (std::size_t i : l.peers) peers.push_back("GPU" + std::to_string(i));
    g.why.push_back(l.kind + join(peers) + ": " + l.judgement->path + ", " + l.judgement->reason);
  }
}

// The candidates in none of the groups.
std::vector<std::size_t> outside(const std::vector<std::size_t>& candidates,
                                 const std::vector<std::vector<std::size_t>>& groups) {
  std::vector<std::size_t> rest;
  for (std::size_t g : candidates)
    if (std::none_of(groups.begin(), groups.end(),
                     [&](const auto& c) { return std::find(c.begin(), c.end(), g) != c.end(); }))
      rest.push_back(g);
  return rest;
}

// Each group's GPUs, and the groups by their first GPU, in the order the VM's GPUs were given.
void order_as_given(const std::vector<std::size_t>& selected,
                    std::vector<std::vector<std::size_t>>& groups) {
  std::map<std::size_t, std::size_t> position_of;
  for (std::size_t i = 0; i < selected.size(); ++i) position_of.emplace(selected[i], i);
  const auto earlier = [&](std::size_t x, std::size_t y) {
    return position_of.at(x) < position_of.at(y);
  };
  for (auto& c : groups) std::sort(c.begin(), c.end(), earlier);
  std::sort(groups.begin(), groups.end(),
            [&](const auto& x, const auto& y) { return earlier(x.front(), y.front()); });
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
  j.path = topo::matrix_label(v.topology, j.a, j.b);
  j.evidence = gather(v, j);
  const PairEvidence* against = nullptr;
  const PairEvidence* best = nullptr;
  for (const auto& e : j.evidence) {
    if (e.against && (against == nullptr || against_rank(e) < against_rank(*against))) against = &e;
    if (!e.against && (best == nullptr || e.level < best->level)) best = &e;
  }
  if (against != nullptr) return verdict(j, false, against->basis, against->what);
  if (best != nullptr) return verdict(j, true, best->basis, best->what, best->level);
  return by_class(v, j, v.topology.pcie_matrix[j.a][j.b]);
}

std::vector<const PairJudgement*> CliquePlan::provisional() const {
  std::map<std::size_t, std::size_t> group_of;
  for (std::size_t k = 0; k < provisional_groups.size(); ++k)
    for (std::size_t g : provisional_groups[k]) group_of[g] = k;
  std::vector<const PairJudgement*> out;
  for (const auto& p : pairs)
    if (p.level == EvidenceLevel::kPathClass && group_of.count(p.a) && group_of.count(p.b) &&
        group_of[p.a] == group_of[p.b])
      out.push_back(&p);
  return out;
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
  // Cliques only of pairs the host's evidence carries: a clique is a promise the hypervisor makes
  // and nothing checks. The GPUs left over that the path class alone would join are proposed,
  // not planned: provisional groups, without IDs or settings, until the host proves them.
  auto cliques = group(pairs, candidates, false);
  p.provisional_groups = group(pairs, outside(candidates, cliques), true);
  order_as_given(selected, cliques);
  order_as_given(selected, p.provisional_groups);
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
  const std::vector<int> provisional_of = provisional_group_of(p, v.gpus.size());
  for (auto& g : p.gpus) explain(p, pairs, provisional_of, g);
  if (!v.has_facts() && v.captures.empty())
    p.notes.push_back(
        "judged from the topology alone: no doctor facts, so the host driver's P2P status, ACS, "
        "IOMMU groups and the peer copy are unknown (run p2pcheck doctor --save-facts on the host "
        "and give --facts)");
  p.notes.insert(p.notes.end(), v.notes.begin(), v.notes.end());
  return p;
}

}  // namespace p2p::vm
