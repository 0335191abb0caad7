// vfio.clique: inside a VFIO guest, do the GPUs carry GPUDirect cliques, does the driver honour
// them, and did the peer copy prove every pair of each clique? A clique is the hypervisor's word,
// which QEMU never checks: P2P it grants is trusted only once data arrived on every pair.
#include <map>

#include "doctor/derived.hpp"
#include "doctor/rules/rules_util.hpp"
#include "doctor/vfio_guest.hpp"

namespace p2p::doctor {

namespace {

const char* const kId = "vfio.clique";

std::string clique_list(const GuestCliques& g) {
  std::string out;
  for (const auto& [id, members] : g.cliques)
    out += (out.empty() ? "" : "; ") + std::string("clique ") + std::to_string(id) + ": " +
           join(members);
  return out;
}

std::string pair_text(const CliquePair& p) {
  return p.a + " - " + p.b + " (clique " + std::to_string(p.clique) + ")";
}

bool all_driver_p2p(const Facts& f) {
  if (f.nvml.pairs.empty()) return false;
  for (const auto& p : f.nvml.pairs)
    if (!p.read || !p.write || *p.read != 0 || *p.write != 0) return false;
  return true;
}

Finding without_cliques(const Facts& f, const GuestCliques& g) {
  if (all_driver_p2p(f))
    return finding(kId, Status::kPass,
                   "no GPUDirect clique, and the driver offers P2P on every pair anyway (NVLink)",
                   g.detail);
  return finding(kId, Status::kWarn,
                 "no GPU carries the virtual P2P approval capability: the driver judges P2P "
                 "from the emulated PCIe tree",
                 g.detail, clique_plan_command(g));
}

Finding refused(const GuestCliques& g, const std::vector<CliquePair>& pairs,
                std::vector<std::string> ev, const std::vector<std::string>& traps) {
  std::vector<std::string> names;
  for (const auto& p : pairs) names.push_back(pair_text(p) + ": " + p.driver_reason);
  // The traps first: they are the next cause, and evidence lists are cut short in text.
  for (auto t = traps.rbegin(); t != traps.rend(); ++t) ev.insert(ev.begin(), "trap: " + *t);
  return finding(kId, Status::kWarn,
                 "cliques set (" + clique_list(g) + "), but the driver still refuses P2P on " +
                     std::to_string(pairs.size()) + " pair(s): " + join_some(names),
                 ev,
                 traps.empty() ? "the hypervisor's settings landed but the driver says no: check "
                                 "the VM config on the host with p2pcheck vm plan --vm-config"
                               : "fix the trap(s) above in the VM config, restart the VM");
}

// Per clique whose pairs failed: the GPU(s) to take out of it.
std::string take_out_text(const std::vector<CliquePair>& pairs) {
  std::map<int, std::vector<CliquePair>> by_clique;
  for (const auto& p : pairs) by_clique[p.clique].push_back(p);
  std::string out;
  for (const auto& [id, failed_pairs] : by_clique) {
    const auto gpus = gpus_to_take_out(failed_pairs);
    out +=
        (out.empty() ? "take " : "; take ") +
        (gpus.size() == 1 ? gpus.front() : "one of " + join(gpus)) + " out of clique " +
        std::to_string(id) +
        (gpus.size() == 1 ? "" : " (each failed with the other: with two left, drop the clique)");
  }
  return out;
}

Finding failed(const std::vector<CliquePair>& pairs, std::vector<std::string> ev) {
  std::vector<std::string> names;
  for (const auto& p : pairs) {
    names.push_back(pair_text(p));
    for (const auto& x : p.failures) ev.push_back("peer copy: " + x);
  }
  return finding(kId, Status::kFail,
                 "P2P claimed through a clique but data did not arrive on " +
                     std::to_string(pairs.size()) + " pair(s): " + join_some(names),
                 ev,
                 take_out_text(pairs) +
                     " on the host (drop its x-nv-gpudirect-clique, or give it a clique of its "
                     "own) and restart the VM; p2pcheck vm plan on the host says which GPUs can "
                     "share a clique; until then NCCL_P2P_DISABLE=1 in this VM");
}

Finding judge_cliques(const Facts& f, const GuestCliques& g, std::vector<std::string> ev) {
  std::vector<CliquePair> refused_pairs, failed_pairs;
  int verified = 0;
  for (const auto& p : g.pairs) {
    if (p.copy == PairCopy::kFailed) failed_pairs.push_back(p);
    if (p.copy == PairCopy::kVerified) ++verified;
    if (p.driver_p2p == std::optional<bool>(false)) refused_pairs.push_back(p);
  }
  if (!failed_pairs.empty()) return failed(failed_pairs, ev);
  if (!refused_pairs.empty()) return refused(g, refused_pairs, ev, guest_traps(f));
  const std::string total = std::to_string(g.pairs.size());
  if (verified < static_cast<int>(g.pairs.size()))
    return finding(kId, Status::kUnknown,
                   "P2P claimed through GPUDirect cliques (" + clique_list(g) +
                       "): peer copy required on every pair of each clique (" +
                       std::to_string(verified) + " of " + total + " verified)",
                   ev,
                   "run p2pcheck doctor live in this VM: it copies between every pair and checks "
                   "the data on the destination; until then NCCL_P2P_DISABLE=1");
  ev.push_back(
      "NCCL judges P2P from the guest's emulated topology: NCCL_P2P_LEVEL=SYS lets it use what "
      "the cliques grant");
  return finding(
      kId, Status::kPass,
      "GPUDirect cliques (" + clique_list(g) + "): peer copy verified on all " + total + " pair(s)",
      ev);
}

Finding check_clique(const Facts& f) {
  const GuestCliques g = guest_cliques(f);
  if (!in_vm_passthrough(f) && g.cliques.empty())
    return finding(kId, Status::kSkip, "not a VFIO guest: no clique needed");
  if (g.gpus < 2)
    return finding(kId, Status::kSkip,
                   "one GPU: no peer needs a clique" +
                       (g.detail.empty() ? std::string() : " (" + g.detail.front() + ")"),
                   g.detail);
  if (!g.checked)
    return finding(kId, Status::kUnknown,
                   "GPUDirect clique capability not read (facts recorded before this check)");
  if (!g.unknown.empty())
    return finding(kId, Status::kUnknown,
                   "GPUDirect clique capability not readable on " + join_some(g.unknown), g.detail,
                   "run p2pcheck doctor as root in the VM (config space past 64 bytes needs "
                   "CAP_SYS_ADMIN)");
  if (g.cliques.empty()) return without_cliques(f, g);
  if (!g.without.empty())
    return finding(
        kId, Status::kWarn,
        "clique set on some GPUs (" + clique_list(g) + ") but not on " + join_some(g.without),
        g.detail,
        "set x-nv-gpudirect-clique on those too; on Proxmox a hostpci entry without a "
        "function (01:00) names its device hostpciN.0, which -set cannot reach: write "
        "0000:01:00.0");
  return judge_cliques(f, g, g.detail);
}

}  // namespace

void rules::vfio(const Facts& f, std::vector<Finding>& out) { out.push_back(check_clique(f)); }

std::optional<Finding> p2p_status_with_cliques(const Facts& f, const std::string& summary,
                                               const std::vector<std::string>& evidence) {
  if (guest_cliques(f).cliques.empty()) return std::nullopt;
  return finding("p2p.status", Status::kWarn,
                 summary + " - VFIO guest with GPUDirect cliques: see vfio.clique", evidence,
                 "GPUs of different cliques have no P2P between them by design; pairs inside one "
                 "clique are judged by vfio.clique");
}

}  // namespace p2p::doctor
