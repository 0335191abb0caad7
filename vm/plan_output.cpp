// `vm plan` as text for people and as the p2pcheck.vm_plan JSON document.
#include <algorithm>
#include <optional>
#include <sstream>

#include "common/json_text.hpp"
#include "common/json_util.hpp"
#include "common/text.hpp"
#include "common/verdict_line.hpp"
#include "vm/plan_report.hpp"

namespace p2p::vm {

namespace {

using nlohmann::json;

std::string indented(const std::string& block, const std::string& pad) {
  std::istringstream in(block);
  std::string out;
  for (std::string line; std::getline(in, line);) out += pad + line + "\n";
  return out;
}

// The weakest evidence any pair of the clique rests on: the clique is as sure as that pair.
std::string weakest(const PlanReport& r, const Clique& c) {
  std::optional<EvidenceLevel> w;
  for (const auto& p : r.plan.pairs) {
    const bool in = std::count(c.gpus.begin(), c.gpus.end(), p.a) != 0 &&
                    std::count(c.gpus.begin(), c.gpus.end(), p.b) != 0;
    if (in && p.level && (!w || *p.level > *w)) w = p.level;
  }
  if (!w) return "";
  switch (*w) {
    case EvidenceLevel::kPeerCopy: return "every pair's peer copy verified on the host";
    case EvidenceLevel::kDriver: return "the host's driver says P2P OK";
    case EvidenceLevel::kNvlink: return "NVLink";
    case EvidenceLevel::kPathClass: return "the path class alone";
  }
  return "";
}

bool provisional(const PlanReport& r, std::size_t gpu) {
  return std::any_of(r.plan.provisional_groups.begin(), r.plan.provisional_groups.end(),
                     [&](const auto& c) { return std::count(c.begin(), c.end(), gpu) != 0; });
}

void cliques_text(std::ostream& out, const PlanReport& r, const HostView& v) {
  out << "Cliques (x-nv-gpudirect-clique):\n";
  for (const auto& c : r.plan.cliques) {
    std::vector<std::string> members;
    for (std::size_t g : c.gpus) members.push_back(gpu_label(v, g));
    out << "  clique " << c.id << "  " << join(members) << "\n";
    out << "            evidence: " << weakest(r, c) << "\n";
  }
  for (const auto& c : r.plan.provisional_groups) {
    std::vector<std::string> members;
    for (std::size_t g : c) members.push_back(gpu_label(v, g));
    out << "  provisional  " << join(members)
        << "\n            the path class alone: no clique (and no setting below) until the host "
           "proves it\n";
  }
  std::vector<std::string> out_gpus;
  for (const auto& g : r.plan.gpus)
    if (!g.clique && !provisional(r, g.index)) out_gpus.push_back(gpu_label(v, g.index));
  if (r.plan.gpus.size() < 2) {
    out << "  none needed: one GPU has no peer\n";
    return;
  }
  if (r.plan.cliques.empty() && r.plan.provisional_groups.empty()) out << "  none\n";
  if (!out_gpus.empty()) out << "  left out  " << join(out_gpus) << "\n";
}

void gpus_text(std::ostream& out, const PlanReport& r, const HostView& v) {
  out << "\nWhy, per GPU:\n";
  for (const auto& g : r.plan.gpus) {
    out << "  " << gpu_label(v, g.index) << "  "
        << (g.clique ? "clique " + std::to_string(*g.clique)
                     : std::string(r.plan.gpus.size() < 2    ? "no clique needed"
                                   : provisional(r, g.index) ? "provisional"
                                                             : "left out"))
        << "\n";
    for (const auto& w : g.why) out << "    " << w << "\n";
    for (const auto& f : g.facts) out << "    " << f << "\n";
    for (const auto& w : g.warnings) out << "    ! " << w << "\n";
  }
}

void traps_text(std::ostream& out, const PlanReport& r) {
  if (!r.config) return;
  const VmConfig& c = *r.config;
  out << "\nVM config " << c.source << " (" << c.kind << (c.name.empty() ? "" : ", " + c.name)
      << "): ";
  if (r.traps.empty()) {
    out << "no known trap (machine " << (c.machine.empty() ? "-" : c.machine) << ", "
        << c.devices.size() << " device(s) passed through, " << c.cliques.size()
        << " clique setting(s))\n";
    return;
  }
  out << r.traps.size() << " trap(s)\n";
  for (const auto& t : r.traps)
    out << "  ✘ " << t.id << ": " << t.what << "\n    → " << t.fix << "\n";
}

json pair_json(const PairJudgement& p) {
  json seen = json::array();
  for (const auto& e : p.evidence)
    seen.push_back({{"says", e.against ? "against" : "for"},
                    {"level", to_string(e.level)},
                    {"basis", e.basis},
                    {"what", e.what}});
  return {{"gpus", {p.a, p.b}}, {"path", p.path},
          {"p2p", p.p2p},       {"evidence", p.level ? json(to_string(*p.level)) : json(nullptr)},
          {"basis", p.basis},   {"reason", p.reason},
          {"seen", seen}};
}

}  // namespace

namespace {

// PASS where every GPU is in a clique on the host's evidence and the config has no trap; else
// FAIL with the first thing in the way: a trap, a GPU in no clique, pairs only the path class
// joins.
std::string plan_verdict_line(const PlanReport& r) {
  const auto& p = r.plan;
  if (r.exit_code() == 0)
    return verdict_line("vm plan", VerdictWord::kPass,
                        std::to_string(p.gpus.size()) + " GPU(s) in " +
                            std::to_string(p.cliques.size()) + " clique(s) on the host's evidence");
  if (!r.traps.empty()) {
    const std::string more =
        r.traps.size() > 1 ? " (+" + std::to_string(r.traps.size() - 1) + " more traps)" : "";
    return verdict_line("vm plan", VerdictWord::kFail,
                        "trap " + r.traps.front().id + ": " + r.traps.front().what + more);
  }
  const auto guesses = p.provisional();
  std::size_t outside = 0;
  std::string first;
  for (const auto& g : p.gpus)
    if (!g.clique && outside++ == 0) first = "GPU" + std::to_string(g.index);
  if (!guesses.empty())
    return verdict_line("vm plan", VerdictWord::kFail,
                        std::to_string(guesses.size()) +
                            " pair(s) rest on the path class alone: prove them on the host "
                            "(doctor --save-facts, then vm plan --facts)");
  return verdict_line("vm plan", VerdictWord::kFail,
                      std::to_string(outside) + " of " + std::to_string(p.gpus.size()) +
                          " GPU(s) in no clique, first " + first +
                          ": the host's evidence joins it to no other GPU of the VM");
}

// The chosen hypervisor's snippet, or all four when none was chosen.
void snippets_text(std::ostream& out, const PlanReport& r) {
  const std::pair<const char*, const std::string*> all[] = {
      {"proxmox", &r.snippets.proxmox},
      {"libvirt", &r.snippets.libvirt},
      {"qemu", &r.snippets.qemu},
      {"cloud-hypervisor", &r.snippets.cloud_hypervisor}};
  const auto title = [](const std::string& name) {
    return name == "proxmox" ? "Proxmox" : name == "qemu" ? "QEMU" : name;
  };
  for (const auto& [name, text] : all) {
    if (!r.hypervisor.empty() && r.hypervisor != name) continue;
    out << "\n" << title(name) << ":\n" << indented(*text, "  ");
  }
  if (!r.hypervisor.empty())
    out << "(for another hypervisor: --hypervisor proxmox|libvirt|qemu|cloud-hypervisor; --format "
           "json holds all four)\n";
}

}  // namespace

std::string format_plan_text(const PlanReport& r, const HostView& v) {
  std::ostringstream out;
  out << "p2pcheck vm plan\n";
  out << "Host: " << r.topology_source << " (" << v.gpus.size() << " GPUs, "
      << (v.topology.environment.kind.empty() ? "unknown" : v.topology.environment.kind) << "); "
      << (v.has_facts() ? "doctor facts " + v.facts_source : std::string("no doctor facts"))
      << "\n";
  if (!v.captures.empty()) out << "Host P2P captures: " << join(v.captures) << "\n";
  std::vector<std::string> chosen;
  for (const auto& g : r.plan.gpus) chosen.push_back("GPU" + std::to_string(g.index));
  out << "GPUs for the VM: " << join(chosen) << "\n\n";
  cliques_text(out, r, v);
  gpus_text(out, r, v);
  traps_text(out, r);
  if (!r.plan.notes.empty()) {
    out << "\nNotes:\n";
    for (const auto& n : r.plan.notes) out << "  - " << n << "\n";
  }
  if (!r.nccl_topo_file.empty()) {
    out << "\nNCCL topology for the guest: written to " << r.nccl_topo_file << "\n";
    for (const auto& step : r.nccl_install) out << "  - " << step << "\n";
  }
  snippets_text(out, r);
  out << "\nThen, in the guest: p2pcheck topo shows each GPU's clique, and p2pcheck vm verify "
         "copies between every pair of each clique: a clique is trusted only once every pair is "
         "proven.\n";
  if (const auto guesses = r.plan.provisional(); !guesses.empty())
    out << "Provisional: " << guesses.size()
        << " pair(s) rest on the path class alone, so they are in no clique. Prove them on the host: "
           "p2pcheck doctor --save-facts host-facts.json, then vm plan --facts host-facts.json "
           "(or nvidia-smi topo -p2p r > host-p2p.txt, then vm plan --p2p host-p2p.txt)\n";
  out << "\n" << plan_verdict_line(r);
  return out.str();
}

namespace {

// Everything but the pair rows, which are most of a large plan (523,776 at 1,024 GPUs).
json plan_json_without_pairs(const PlanReport& r, const HostView& v) {
  json gpus = json::array(), cliques = json::array(), traps = json::array();
  for (const auto& g : r.plan.gpus)
    gpus.push_back({{"index", g.index},
                    {"pci_bus_id", g.bdf.empty() ? json(nullptr) : json(g.bdf)},
                    {"clique", optional_json(g.clique)},
                    {"why", g.why},
                    {"host", g.facts},
                    {"warnings", g.warnings}});
  for (const auto& c : r.plan.cliques) cliques.push_back({{"id", c.id}, {"gpus", c.gpus}});
  json provisional = json::array();
  for (const auto& c : r.plan.provisional_groups) provisional.push_back({{"gpus", c}});
  for (const auto& t : r.traps) traps.push_back({{"id", t.id}, {"what", t.what}, {"fix", t.fix}});
  json config = nullptr;
  if (r.config) {
    json devices = json::array(), set = json::array();
    for (const auto& d : r.config->devices)
      devices.push_back({{"entry", d.entry},
                         {"id", d.id},
                         {"host_bdf", d.host_bdf},
                         {"function_given", d.function_given}});
    for (const auto& s : r.config->cliques)
      set.push_back({{"target", s.target}, {"clique", s.clique}, {"how", s.how}});
    config = {{"kind", r.config->kind},
              {"source", r.config->source},
              {"machine", r.config->machine},
              {"devices", devices},
              {"cliques", set}};
  }
  return {{"schema", "p2pcheck.vm_plan"},
          {"schema_version", PlanReport::kSchemaVersion},
          {"host",
           {{"topology", r.topology_source},
            {"facts", v.has_facts() ? json(v.facts_source) : json(nullptr)},
            {"gpus", v.gpus.size()}}},
          {"gpus", gpus},
          {"cliques", cliques},
          {"provisional_groups", provisional},
          {"config", config},
          {"traps", traps},
          {"snippets",
           {{"proxmox", r.snippets.proxmox},
            {"libvirt", r.snippets.libvirt},
            {"qemu", r.snippets.qemu},
            {"cloud_hypervisor", r.snippets.cloud_hypervisor}}},
          {"notes", r.plan.notes},
          {"captures", v.captures},
          {"nccl_topology", r.nccl_topo_file.empty()
                                ? json(nullptr)
                                : json{{"file", r.nccl_topo_file}, {"install", r.nccl_install}}},
          {"complete", r.plan.complete()},
          {"provisional", !r.plan.provisional().empty()},
          {"exit_code", r.exit_code()}};
}

}  // namespace

json plan_json(const PlanReport& r, const HostView& v) {
  json j = plan_json_without_pairs(r, v);
  json pairs = json::array();
  for (const auto& p : r.plan.pairs) pairs.push_back(pair_json(p));
  j["pairs"] = std::move(pairs);
  return j;
}

std::string plan_json_text(const PlanReport& r, const HostView& v) {
  return json_text_with_array(plan_json_without_pairs(r, v), "pairs", r.plan.pairs.size(),
                              [&r](std::size_t i) { return pair_json(r.plan.pairs[i]); });
}

}  // namespace p2p::vm
