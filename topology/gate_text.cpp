#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "common/verdict_line.hpp"
#include "topology/diff.hpp"
#include "topology/gate.hpp"

namespace p2p::topo {

namespace {

constexpr std::size_t kNamedPerLine = 6;  // GPUs or pairs named on a grouped line; the rest counted

// Reasons of one rule and verdict that differ only in the GPU or pair they begin with.
struct Group {
  GateVerdict verdict = GateVerdict::kNote;
  std::string rule;
  std::string what;                // the message without its GPU or pair
  std::vector<std::string> names;  // "GPU0-GPU1", in the order the gate gave them
};

// "GPU0-GPU1: PHB here, NODE in ..." -> {"GPU0-GPU1", "PHB here, NODE in ..."}; a message that
// does not begin with the GPUs of its reason is its own kind.
std::pair<std::string, std::string> split_subject(const GateReason& r) {
  std::string subject;
  if (r.gpus.size() == 2) subject = pair_name(r.gpus[0], r.gpus[1]);
  if (r.gpus.size() == 1) subject = "GPU" + std::to_string(r.gpus[0]);
  if (subject.empty() || r.message.rfind(subject + ": ", 0) != 0) return {"", r.message};
  return {subject, r.message.substr(subject.size() + 2)};
}

std::vector<Group> grouped(const GateDecision& d) {
  std::vector<Group> groups;
  std::map<std::tuple<int, std::string, std::string>, std::size_t> index;
  // Notes first: the one saying this is a VM explains every pair class that follows.
  std::vector<const GateReason*> order;
  for (const auto& r : d.reasons)
    if (r.verdict == GateVerdict::kNote && r.message.rfind(kTakenInAVm, 0) == 0)
      order.push_back(&r);
  for (const auto& r : d.reasons)
    if (r.verdict == GateVerdict::kNote && r.message.rfind(kTakenInAVm, 0) != 0)
      order.push_back(&r);
  for (const auto& r : d.reasons)
    if (r.verdict != GateVerdict::kNote) order.push_back(&r);
  for (const GateReason* r : order) {
    auto [subject, what] = split_subject(*r);
    const auto key = std::make_tuple(static_cast<int>(r->verdict), r->rule, what);
    auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.push_back({r->verdict, r->rule, what, {}});
    if (!subject.empty()) groups[it->second].names.push_back(subject);
  }
  return groups;
}

std::string line_text(const Group& g) {
  if (g.names.empty()) return g.what;
  if (g.names.size() == 1) return g.names[0] + ": " + g.what;
  const bool pairs = g.names[0].find('-') != std::string::npos;
  std::string named;
  for (std::size_t i = 0; i < g.names.size() && i < kNamedPerLine; ++i)
    named += (i ? ", " : "") + g.names[i];
  if (g.names.size() > kNamedPerLine)
    named += " and " + std::to_string(g.names.size() - kNamedPerLine) + " more";
  return g.what + ": " + std::to_string(g.names.size()) + (pairs ? " pairs (" : " GPUs (") + named +
         ")";
}

bool taken_in_a_vm(const GateDecision& d) {
  return std::any_of(d.reasons.begin(), d.reasons.end(), [](const GateReason& r) {
    return r.verdict == GateVerdict::kNote && r.message.rfind(kTakenInAVm, 0) == 0;
  });
}

// What to do about the first blocking rule.
std::string next_step(const GateDecision& d, const std::string& rule) {
  if (rule == "expect.pair_class" && taken_in_a_vm(d))
    return "a VM's PCIe tree is the hypervisor's: compare it with a golden topology saved in the "
           "same kind of VM (p2pcheck topo --json in the guest), and give P2P back with "
           "GPUDirect cliques planned on the host (p2pcheck vm plan; the policy's require_cliques "
           "checks them)";
  if (rule == "expect.pair_class")
    return "p2pcheck topo diff THIS GOLDEN shows each pair that moved: a GPU in another slot, or "
           "a BIOS setting (ACS, bifurcation), changes the path between GPUs";
  if (rule == "expect.gpu_count" || rule == "policy.min_gpus")
    return "p2pcheck doctor says why a GPU is missing (driver, module, device nodes, a GPU off "
           "the bus)";
  if (rule == "policy.max_path" || rule == "policy.forbid")
    return "run on GPUs whose paths the policy allows (p2pcheck infer --list shows the groups), "
           "or change max_path or forbid in the policy";
  if (rule == "policy.min_link")
    return "p2pcheck doctor (pcie.link) says which slot trained narrow or slow: reseat the GPU, "
           "check the slot's BIOS link settings";
  if (rule == "policy.require_p2p")
    return "p2pcheck doctor says why the driver refuses P2P (ACS or the IOMMU, a VM without "
           "cliques, a board without P2P)";
  if (rule == "policy.require_cliques")
    return "p2pcheck vm plan on the host gives each GPU a clique";
  if (rule == "health.gpu") return "p2pcheck doctor names the failing GPU and what to do";
  if (rule == "env.p2p")
    return "unset the variable, or pass --allow-env VARIABLE for a run without P2P on purpose";
  return "";
}

}  // namespace

std::string gate_verdict_line(const GateDecision& d, const std::string& command) {
  if (d.passed) return verdict_line(command, VerdictWord::kPass, "");
  for (const Group& g : grouped(d))
    if (g.verdict == GateVerdict::kBlock)
      return verdict_line(command, VerdictWord::kBlocked,
                          g.rule + ": " + line_text(g) + " (" + std::to_string(d.blocking()) +
                              " blocking reason" + (d.blocking() == 1 ? ")" : "s)"));
  return verdict_line(command, VerdictWord::kBlocked, "");
}

std::string format_gate_text(const GateDecision& d) {
  std::ostringstream out;
  if (d.passed)
    out << "gate: PASS\n";
  else
    out << "gate: BLOCKED (" << d.blocking() << " blocking reason" << (d.blocking() == 1 ? "" : "s")
        << ")\n";
  const std::vector<Group> groups = grouped(d);
  std::size_t rule_width = 20;  // the longest rule and two spaces, so no name runs into its text
  for (const Group& g : groups) rule_width = std::max(rule_width, g.rule.size() + 2);
  std::string first_block;
  for (const Group& g : groups) {
    const bool block = g.verdict == GateVerdict::kBlock;
    if (block && first_block.empty()) first_block = g.rule;
    out << "  " << std::left << std::setw(8)
        << (block ? std::string("BLOCK") : to_string(g.verdict))
        << std::setw(static_cast<int>(rule_width)) << g.rule << line_text(g) << "\n";
  }
  if (!d.expected_source.empty()) out << "golden topology: " << d.expected_source << "\n";
  if (const std::string next = next_step(d, first_block); !next.empty())
    out << "next: " << next << "\n";
  return out.str();
}

}  // namespace p2p::topo
