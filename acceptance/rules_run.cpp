#include <map>
#include <set>

#include "acceptance/grading.hpp"
#include "acceptance/rules.hpp"
#include "document/figure_key.hpp"

namespace p2p::accept {
namespace {

using doc::CaveatKind;
using doc::Outcome;

std::string joined(const std::vector<std::string>& items, std::size_t at_most = 3) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < at_most; ++i) out += (i ? "; " : "") + items[i];
  if (items.size() > at_most) out += "; and " + std::to_string(items.size() - at_most) + " more";
  return out;
}

void judge_gate(Judging& j) {
  const doc::BenchDocument& d = j.view.doc();
  if (!d.skip_gate) return;
  if (d.gate.decision && *d.gate.decision == topo::GateVerdict::kBlock) {
    add_caveat(j.verdict, CaveatKind::kGateOverride, "measured although the gate blocked");
    add_check(j.verdict, make_check("gate", "run", Outcome::kFail,
                                    "the gate blocked this host (" + d.gate.detail +
                                        "); it was measured anyway with --skip-gate",
                                    priority::kGate));
  } else {
    add_caveat(j.verdict, CaveatKind::kGateOverride, "--skip-gate");
  }
}

// Devices, not logical GPUs: what the host's own GPUs are counted against.
std::set<std::string> measured_bus_ids(const doc::BenchDocument& d) {
  std::set<std::string> out;
  for (const auto& g : d.gpus) out.insert(g.pci_bus_id);
  return out;
}

void judge_gpu_count(Judging& j) {
  const doc::BenchDocument& d = j.view.doc();
  if (j.view.imported()) return;  // a peer tool's output names no topology of its own
  const std::set<std::string> measured = measured_bus_ids(d);
  const int seen = static_cast<int>(measured.size());
  if (j.facts.expect_gpus) {
    const int want = *j.facts.expect_gpus;
    add_check(j.verdict,
              make_check("gpu_count", "run", seen < want ? Outcome::kFail : Outcome::kPass,
                         "CUDA showed " + std::to_string(seen) + " GPU(s); --expect-gpus " +
                             std::to_string(want),
                         priority::kGpuCount));
  }
  if (!d.topology || d.topology_source == "cuda") {
    add_check(j.verdict, make_check("gpu_count", "topology", Outcome::kSkipped,
                                    "the topology came from CUDA's own device list: a GPU CUDA "
                                    "cannot see would not show in it",
                                    priority::kGpuCount));
    return;
  }
  if (!d.gpu_selection.empty()) {
    add_check(j.verdict, make_check("gpu_count", "topology", Outcome::kSkipped,
                                    "GPUs were chosen (" + d.gpu_selection +
                                        "): the others were not meant to be measured",
                                    priority::kGpuCount));
    return;
  }
  std::vector<std::string> missing;
  for (const auto& g : d.topology->gpus)
    if (measured.count(g.pci_bus_id) == 0) missing.push_back(g.pci_bus_id);
  const int listed = static_cast<int>(d.topology->gpus.size());
  std::string message = "CUDA showed " + std::to_string(seen) + " GPU(s), the PCI topology lists " +
                        std::to_string(listed);
  if (!missing.empty()) message += "; not seen by CUDA: " + joined(missing, 8);
  add_check(j.verdict,
            make_check("gpu_count", "topology", missing.empty() ? Outcome::kPass : Outcome::kFail,
                       message, priority::kGpuCount));
}

void judge_waivers(Judging& j) {
  std::map<std::string, int> reasons;  // detail -> figures
  int waived = 0;
  const auto add = [&](doc::FigureStatus s, const std::string& detail) {
    if (s != doc::FigureStatus::kWaived) return;
    ++waived;
    ++reasons[detail.empty() ? "no reason given" : detail];
  };
  for (const auto& r : j.view.doc().bandwidth) add(r.status, r.detail);
  for (const auto& r : j.view.doc().latency) add(r.status, r.detail);
  if (waived == 0) return;
  std::vector<std::string> lines;
  for (const auto& [why, n] : reasons) {
    lines.push_back(std::to_string(n) + " x " + why);
    add_check(j.verdict,
              make_check("waived", "figures", Outcome::kSkipped,
                         std::to_string(n) + " figure(s) not measured: " + why, priority::kError));
  }
  add_caveat(j.verdict, CaveatKind::kWaived,
             std::to_string(waived) + " figure(s) waived: " + joined(lines));
}

}  // namespace

void judge_run_state(Judging& j) {
  const doc::BenchDocument& d = j.view.doc();
  j.verdict.interrupt_signal = j.facts.interrupt_signal;
  if (!d.interrupted.empty()) {
    add_caveat(j.verdict, CaveatKind::kInterrupted, d.interrupted);
    add_check(j.verdict, make_check("interrupted", "run", Outcome::kFail,
                                    "the run stopped before its end (" + d.interrupted +
                                        "): what it did not measure cannot pass",
                                    priority::kInterrupted));
  }
  if (d.gpu_sharing && d.gpu_sharing->shared) {
    const std::string who = joined(d.gpu_sharing->notes);
    add_caveat(j.verdict, CaveatKind::kShared, who);
    add_check(j.verdict,
              make_check("shared", "run", Outcome::kFail,
                         "another process or p2pcheck run used a measured GPU meanwhile, so the "
                         "figures are not the links': " +
                             who,
                         priority::kShared));
  }
  judge_gate(j);
  if (j.view.logical()) {
    add_caveat(j.verdict, CaveatKind::kLogicalGpus, doc::logical_gpus_note(d));
    add_check(j.verdict, make_check("logical_gpus", "run", Outcome::kNotMeaningful,
                                    doc::logical_gpus_note(d) +
                                        ": peer figures are not judged against the links",
                                    priority::kGpuCount));
  }
  if (j.view.imported())
    add_caveat(j.verdict, CaveatKind::kUnverified,
               "imported from " + doc::imported_from(d) + ": p2pcheck did not verify the data");
  judge_gpu_count(j);
  judge_waivers(j);
}

void judge_measurements(Judging& j) {
  int verified = 0;
  const auto judge = [&](doc::FigureStatus s, const std::string& subject, const std::string& detail,
                         std::uint64_t bad_words) {
    if (s == doc::FigureStatus::kOk) ++verified;
    if (s == doc::FigureStatus::kFailed) {
      const std::string words =
          bad_words ? std::to_string(bad_words) + " word(s) wrong after the copy" : "wrong data";
      add_check(j.verdict,
                make_check("verification", subject, Outcome::kFail,
                           words + (detail.empty() ? "" : ": " + detail), priority::kVerification));
    } else if (s == doc::FigureStatus::kError) {
      add_check(j.verdict,
                make_check("measurement", subject, Outcome::kError,
                           detail.empty() ? "the case hit an error" : detail, priority::kError));
    }
  };
  for (const auto& r : j.view.doc().bandwidth)
    judge(r.status, doc::figure_key(r), r.detail, r.bad_words);
  for (const auto& r : j.view.doc().latency) judge(r.status, doc::figure_key(r), r.detail, 0);
  if (j.view.imported()) {
    add_check(j.verdict,
              make_check("verification", "figures", Outcome::kSkipped,
                         std::to_string(verified) +
                             " imported figure(s): the data was not verified by p2pcheck",
                         priority::kVerification));
  } else if (verified > 0) {
    add_check(j.verdict,
              make_check("verification", "figures", Outcome::kPass,
                         std::to_string(verified) + " figure(s), every transfer verified",
                         priority::kVerification));
  }
}

}  // namespace p2p::accept
