#include "doctor/verdict/verdict_vfio.hpp"

#include <algorithm>

#include "doctor/derived.hpp"
#include "doctor/verdict/verdict.hpp"
#include "doctor/vfio_guest.hpp"

namespace p2p::doctor {

namespace {

void add(std::vector<Cause>& out, std::string id, std::string title, int score,
         std::vector<std::string> evidence, std::string fix, std::vector<std::string> gpus = {}) {
  out.push_back(make_cause(std::move(id), std::move(title), score, std::move(evidence),
                           std::move(fix), std::move(gpus)));
}

std::vector<std::string> evidence_of(const Finding* f) {
  std::vector<std::string> ev;
  if (f == nullptr) return ev;
  ev.push_back(f->summary);
  ev.insert(ev.end(), f->evidence.begin(), f->evidence.end());
  return ev;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The GPUs of the failing clique pairs the hint names: "take A, B out of clique 0".
std::vector<std::string> take_out_gpus(const Facts& f) {
  std::vector<CliquePair> failed;
  for (const auto& p : guest_cliques(f).pairs)
    if (p.copy == PairCopy::kFailed) failed.push_back(p);
  return gpus_to_take_out(failed);
}

}  // namespace

void vfio_causes(const Facts& f, const std::vector<Finding>& all, std::vector<Cause>& out) {
  const Finding* clique = find_finding(all, "vfio.clique");
  const Finding* p2p = find_finding(all, "p2p.status");
  const bool refused_in_guest =
      p2p != nullptr && p2p->status == Status::kWarn && in_vm_passthrough(f);
  const Status s = clique == nullptr ? Status::kSkip : clique->status;
  const std::string summary = clique == nullptr ? "" : clique->summary;
  if (s == Status::kFail)
    return add(out, "vm_clique_bad", "A GPUDirect clique claims P2P the host does not deliver", 13,
               evidence_of(clique), clique->hint, take_out_gpus(f));
  if (s == Status::kWarn && starts_with(summary, "cliques set"))
    return add(out, "vm_clique_refused", "GPUDirect cliques set, but the driver still refuses P2P",
               7, evidence_of(clique), clique->hint);
  if (s == Status::kWarn)
    return add(out, "vm_p2p",
               starts_with(summary, "clique set on some")
                   ? "VFIO guest: a GPUDirect clique on some GPUs only"
                   : "VFIO guest: no GPUDirect clique on the GPUs",
               6, evidence_of(clique), clique->hint);
  if (s == Status::kUnknown && summary.find("peer copy required") != std::string::npos)
    return add(out, "vm_clique_unverified",
               "P2P claimed through GPUDirect cliques, not yet verified: peer copy required", 4,
               evidence_of(clique), clique->hint);
  // Pairs across cliques have no P2P by design: only a guest without any clique loses it here.
  if (!refused_in_guest || !guest_cliques(f).cliques.empty()) return;
  auto ev = evidence_of(p2p);
  if (clique != nullptr) ev.push_back("vfio.clique: " + clique->summary);
  add(out, "vm_p2p", "VFIO guest: no P2P behind the VM's emulated PCIe topology", 6, ev,
      clique_plan_command(guest_cliques(f)));
}

std::optional<VerdictState> vfio_verdict_state(const std::vector<Cause>& causes) {
  const auto has = [&](const char* id) {
    return std::any_of(causes.begin(), causes.end(), [&](const Cause& c) { return c.id == id; });
  };
  if (has("vm_p2p") || has("vm_clique_refused") || has("vm_clique_bad"))
    return VerdictState::kDegraded;
  if (has("vm_clique_unverified")) return VerdictState::kInconclusive;
  return std::nullopt;
}

}  // namespace p2p::doctor
