#include "topology/gate.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "common/json_util.hpp"
#include "topology/classify.hpp"
#include "topology/diff.hpp"
#include "topology/environment.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::topo {

namespace {

void add(GateDecision& d, std::string rule, GateVerdict verdict, std::string message,
         std::vector<std::size_t> gpus = {}) {
  d.reasons.push_back(GateReason{std::move(rule), verdict, std::move(message), std::move(gpus)});
}

std::string gpu_name(const TopologySnapshot& t, std::size_t i) {
  if (t.gpus[i].pci_bus_id.empty()) return "GPU" + std::to_string(i);
  return "GPU" + std::to_string(i) + " (" + t.gpus[i].pci_bus_id + ")";
}

std::string shown_pair(const std::string& label, const std::string& pcie) {
  return label == pcie || pcie.empty() ? label : label + " over PCIe " + pcie;
}

void check_expected(const TopologySnapshot& t, const TopologySnapshot& golden, GateDecision& d) {
  d.expected_source = golden.source;
  const TopologyDiff diff = diff_topologies(t, golden);
  d.pairing = diff.pairing;
  const std::string here = std::to_string(t.gpus.size()) + " GPUs";
  if (diff.gpus_before != diff.gpus_after) {
    add(d, "expect.gpu_count", GateVerdict::kBlock,
        here + " here, " + std::to_string(golden.gpus.size()) + " in the golden topology");
    return;
  }
  add(d, "expect.gpu_count", GateVerdict::kPass, here + ", as in the golden topology");
  if (diff.pairing == "index")
    add(d, "note", GateVerdict::kNote,
        diff.bus_ids_unknown
            ? "GPUs matched to the golden topology by index: an nvidia-smi topo -m capture carries no PCI bus ids"
            : "GPUs matched to the golden topology by index (PCI bus order): their PCI bus ids differ");
  for (const PairChange& c : diff.changed) {
    std::string message = pair_name(c.gpu_a, c.gpu_b) + ": " + shown_pair(c.before, c.pcie_before) +
                          " here, " + shown_pair(c.after, c.pcie_after) + " in the golden topology";
    if (c.other_a != c.gpu_a || c.other_b != c.gpu_b)
      message += " (its " + pair_name(c.other_a, c.other_b) + ")";
    add(d, "expect.pair_class", GateVerdict::kBlock, std::move(message), {c.gpu_a, c.gpu_b});
  }
  const std::size_t n = t.gpus.size();
  const std::size_t pairs = n > 1 ? n * (n - 1) / 2 : 0;
  if (diff.changed.empty()) {
    add(d, "expect.pair_class", GateVerdict::kPass,
        "all " + std::to_string(pairs) + " pairs have the golden topology's class");
  } else if (t.environment.kind == "vm") {
    // Equality, not rank: a VFIO guest's flat PHB looks closer than the host's NODE/SYS but is
    // an emulated tree; peer traffic still crosses whatever the host has.
    add(d, "note", GateVerdict::kNote,
        kTakenInAVm +
            (t.environment.hypervisor.empty() ? std::string()
                                              : " (" + t.environment.hypervisor + ")") +
            ": its PCIe tree is the hypervisor's emulation, not the host's");
  }
}

void check_pair_classes(const TopologySnapshot& t, const GatePolicy& p, GateDecision& d) {
  const std::size_t n = t.gpus.size();
  bool max_ok = true, forbid_ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const std::string label = matrix_label(t, i, j);
      const PathClass c = *path_class_from_string(label);
      if (p.max_path && path_rank(c) > path_rank(*p.max_path)) {
        max_ok = false;
        add(d, "policy.max_path", GateVerdict::kBlock,
            pair_name(i, j) + ": " + label + " is worse than max_path " + to_string(*p.max_path),
            {i, j});
      }
      if (std::find(p.forbid.begin(), p.forbid.end(), c) != p.forbid.end()) {
        forbid_ok = false;
        add(d, "policy.forbid", GateVerdict::kBlock,
            pair_name(i, j) + ": " + label + " is forbidden", {i, j});
      }
    }
  }
  if (p.max_path && max_ok)
    add(d, "policy.max_path", GateVerdict::kPass,
        "every pair is " + to_string(*p.max_path) + " or better");
  if (!p.forbid.empty() && forbid_ok) {
    std::string list;
    for (PathClass c : p.forbid) list += (list.empty() ? "" : ", ") + to_string(c);
    add(d, "policy.forbid", GateVerdict::kPass, "no pair is " + list);
  }
}

void check_links(const TopologySnapshot& t, const MinLink& min, GateDecision& d) {
  const std::string wanted = "Gen" + std::to_string(min.gen) + " x" + std::to_string(min.width);
  bool all_ok = true;
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    const Gpu& g = t.gpus[i];
    // Lanes do not idle down, so the current width is the truth; the generation does (an idle
    // GPU sits at Gen1), so it is judged by what the slot can train, where that is known.
    const std::optional<int> width = g.link_current.width ? g.link_current.width : g.link_max.width;
    const std::optional<int> gen = g.link_max.gen ? g.link_max.gen : g.link_current.gen;
    const std::string seen =
        "current " + describe_link(g.link_current) + ", max " + describe_link(g.link_max);
    std::string problem;
    if (!gen || !width) {
      problem = "link generation/width unknown";
    } else {
      if (*gen < min.gen)
        problem = "Gen" + std::to_string(*gen) + " below Gen" + std::to_string(min.gen);
      if (*width < min.width) {
        if (!problem.empty()) problem += ", ";
        problem += "x" + std::to_string(*width) + " below x" + std::to_string(min.width);
      }
    }
    if (problem.empty()) continue;
    all_ok = false;
    add(d, "policy.min_link", GateVerdict::kBlock,
        gpu_name(t, i) + ": " + problem + " (" + seen + "), min_link " + wanted, {i});
  }
  if (all_ok)
    add(d, "policy.min_link", GateVerdict::kPass,
        "all " + std::to_string(t.gpus.size()) + " GPUs at " + wanted + " or better");
}

// require_p2p from an `nvidia-smi topo -p2p` capture: what the driver said then, for every pair.
void check_captured_p2p(const TopologySnapshot& t, GateDecision& d) {
  bool all_ok = true;
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    for (std::size_t j = 0; j < t.gpus.size(); ++j) {
      if (i == j) continue;
      const auto code = p2p_status_of(t, i, j);
      if (code && *code == "OK") continue;
      all_ok = false;
      add(d, "policy.require_p2p", GateVerdict::kBlock,
          pair_name(i, j) + ": no P2P in the nvidia-smi topo -p2p capture (" +
              (code ? describe_p2p_status(*code) : std::string("pair missing from the capture")) +
              ")",
          {i, j});
    }
  }
  d.p2p_check = all_ok ? "passed" : "failed";
  if (all_ok)
    add(d, "policy.require_p2p", GateVerdict::kPass,
        "every pair is OK in the nvidia-smi topo -p2p capture");
}

void check_peer_access(const TopologySnapshot& t, const PeerAccessCheck& peer_access,
                       GateDecision& d) {
  if (!peer_access && !t.p2p_status.empty()) {
    check_captured_p2p(t, d);
    return;
  }
  if (!peer_access) {
    d.p2p_check = "needs a live CUDA check";
    add(d, "policy.require_p2p", GateVerdict::kPending,
        "require_p2p: needs a live CUDA check (bench runs it before measuring)");
    return;
  }
  bool all_ok = true;
  for (const PeerAccessResult& r : peer_access(t)) {
    if (r.can_access) continue;
    all_ok = false;
    add(d, "policy.require_p2p", GateVerdict::kBlock,
        pair_name(r.gpu_a, r.gpu_b) + ": no CUDA peer access" +
            (r.detail.empty() ? "" : " (" + r.detail + ")"),
        {r.gpu_a, r.gpu_b});
  }
  d.p2p_check = all_ok ? "passed" : "failed";
  if (all_ok) add(d, "policy.require_p2p", GateVerdict::kPass, "every pair has CUDA peer access");
}

std::string clique_members(const std::map<int, std::vector<std::size_t>>& cliques) {
  std::string out;
  for (const auto& [id, members] : cliques) {
    out += (out.empty() ? "clique " : "; clique ") + std::to_string(id) + ":";
    for (std::size_t i : members) out += " GPU" + std::to_string(i);
  }
  return out;
}

// require_cliques: in a VFIO guest every GPU must carry the hypervisor's clique capability, or the
// driver judges P2P from the emulated tree (CHIPSET_NOT_SUPPORTED on its flat PHB).
void check_cliques(const TopologySnapshot& t, GateDecision& d) {
  const std::string rule = "policy.require_cliques";
  const std::string& kind = t.environment.kind;
  if (kind == "unknown")
    return add(d, rule, GateVerdict::kPending,
               "require_cliques: where this snapshot was taken is unknown (give the facts with "
               "--environment)");
  if (!inside_a_vm(t.environment))
    return add(d, rule, GateVerdict::kPass, "not a VM (" + kind + "): cliques are for guests");
  if (t.gpus.size() < 2) return add(d, rule, GateVerdict::kPass, "one GPU: no pair needs a clique");
  if (t.gpudirect.empty())
    return add(d, rule, GateVerdict::kPending,
               "require_cliques: needs each GPU's config space (run gate live in the VM, or on "
               "a snapshot saved there with topo --json)");
  std::map<int, std::vector<std::size_t>> cliques;
  bool all = true;
  for (std::size_t i = 0; i < t.gpus.size() && i < t.gpudirect.size(); ++i) {
    const GpudirectCapability& c = t.gpudirect[i];
    if (c.state == GpudirectState::kPresent && c.clique) {
      cliques[*c.clique].push_back(i);
      continue;
    }
    all = false;
    add(d, rule, GateVerdict::kBlock,
        gpu_name(t, i) + ": no GPUDirect clique (" + describe_gpudirect(c) +
            "); p2pcheck vm plan on the host prints the setting",
        {i});
  }
  if (all)
    add(d, rule, GateVerdict::kPass, "every GPU carries a clique: " + clique_members(cliques));
}

void check_policy(const TopologySnapshot& t, const GatePolicy& p,
                  const PeerAccessCheck& peer_access, GateDecision& d) {
  d.policy = p;
  if (p.min_gpus) {
    const bool ok = static_cast<int>(t.gpus.size()) >= *p.min_gpus;
    add(d, "policy.min_gpus", ok ? GateVerdict::kPass : GateVerdict::kBlock,
        std::to_string(t.gpus.size()) + " GPUs, min_gpus " + std::to_string(*p.min_gpus));
  }
  check_pair_classes(t, p, d);
  if (p.min_link) check_links(t, *p.min_link, d);
  if (p.require_p2p) check_peer_access(t, peer_access, d);
  if (p.require_cliques) check_cliques(t, d);
}

}  // namespace

std::size_t GateDecision::blocking() const {
  return static_cast<std::size_t>(
      std::count_if(reasons.begin(), reasons.end(),
                    [](const GateReason& r) { return r.verdict == GateVerdict::kBlock; }));
}

GateDecision evaluate_gate(const TopologySnapshot& t,
                           const std::optional<TopologySnapshot>& expected,
                           const std::optional<GatePolicy>& policy,
                           const PeerAccessCheck& peer_access) {
  GateDecision d;
  if (expected) check_expected(t, *expected, d);
  if (policy) check_policy(t, *policy, peer_access, d);
  if (!expected && !policy)
    add(d, "note", GateVerdict::kNote, "nothing to check: no golden topology and no policy given");
  d.passed = d.blocking() == 0;
  return d;
}

const char* to_string(GateVerdict v) {
  switch (v) {
    case GateVerdict::kPass: return "pass";
    case GateVerdict::kBlock: return "block";
    case GateVerdict::kPending: return "pending";
    case GateVerdict::kNote: return "note";
  }
  return "note";
}

void to_json(nlohmann::json& j, GateVerdict v) { j = to_string(v); }

void from_json(const nlohmann::json& j, GateVerdict& v) {
  for (GateVerdict k :
       {GateVerdict::kPass, GateVerdict::kBlock, GateVerdict::kPending, GateVerdict::kNote}) {
    if (j.is_string() && j.get<std::string>() == to_string(k)) {
      v = k;
      return;
    }
  }
  throw InputError("`verdict`: expected one of pass, block, pending, note, got " + shown_value(j));
}

void to_json(nlohmann::json& j, const GateReason& r) {
  j = {{"rule", r.rule}, {"verdict", r.verdict}, {"message", r.message}, {"gpus", r.gpus}};
}

void from_json(const nlohmann::json& j, GateReason& r) {
  j.at("rule").get_to(r.rule);
  j.at("verdict").get_to(r.verdict);
  j.at("message").get_to(r.message);
  j.at("gpus").get_to(r.gpus);
}

void to_json(nlohmann::json& j, const GateDecision& d) {
  j = {{"schema", "p2pcheck.gate"},
       {"schema_version", GateDecision::kSchemaVersion},
       {"passed", d.passed},
       {"decision", d.passed ? "pass" : "blocked"},
       {"blocking", d.blocking()},
       {"pairing", d.pairing},
       {"expected_source", d.expected_source},
       {"policy", d.policy ? nlohmann::json(*d.policy) : nlohmann::json(nullptr)},
       {"p2p_check", d.p2p_check},
       {"reasons", d.reasons}};
}

void from_json(const nlohmann::json& j, GateDecision& d) {
  if (j.at("schema").get<std::string>() != "p2pcheck.gate" ||
      value_at<int>(j, "schema_version") != GateDecision::kSchemaVersion)
    throw InputError("not a p2pcheck.gate decision of schema_version " +
                     std::to_string(GateDecision::kSchemaVersion));
  j.at("passed").get_to(d.passed);
  j.at("pairing").get_to(d.pairing);
  j.at("expected_source").get_to(d.expected_source);
  const auto& policy = j.at("policy");
  d.policy = policy.is_null()
                 ? std::nullopt
                 : std::optional<GatePolicy>(policy_from_json(policy, "gate decision"));
  j.at("p2p_check").get_to(d.p2p_check);
  j.at("reasons").get_to(d.reasons);
}

}  // namespace p2p::topo
