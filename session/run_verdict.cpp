#include "session/run_verdict.hpp"

#include "acceptance/judge.hpp"

namespace p2p::session {

const doc::RunVerdict& judge_measured(doc::BenchDocument& d, const accept::AcceptancePolicy& policy,
                                      std::optional<int> expect_gpus, int interrupt_signal,
                                      const std::string& command) {
  accept::mark_not_meaningful(d);
  accept::RunFacts facts;
  facts.expect_gpus = expect_gpus;
  facts.interrupt_signal = interrupt_signal;
  d.verdict = accept::judge_document(d, policy, facts, command);
  return *d.verdict;
}

nlohmann::json verdict_summary(const doc::RunVerdict& v) {
  nlohmann::json reasons = nlohmann::json::array();
  for (const auto& r : v.reasons()) {
    if (reasons.size() == 5) break;
    reasons.push_back(r.rule + (r.subject.empty() ? "" : " " + r.subject) + ": " + r.message);
  }
  return {{"headline", headline(v)},
          {"outcome", v.outcome},
          {"reasons", reasons},
          {"caveats", v.caveats}};
}

nlohmann::json run_end_summary(const doc::BenchDocument& d) {
  nlohmann::json s = nlohmann::json::object();
  if (!d.bandwidth.empty() || !d.latency.empty() || !d.nccl) {
    const doc::FigureCounts c = doc::count_figures(d);
    s["ok"] = c.ok;
    s["failed"] = c.failed;
    s["waived"] = c.waived;
    s["errors"] = c.errors;
  }
  if (d.nccl) s["results"] = d.nccl->run.results.size();
  s["interrupted"] = d.interrupted;
  s["gpu_shared"] = d.gpu_sharing ? nlohmann::json(d.gpu_sharing->shared) : nlohmann::json(nullptr);
  if (d.verdict) s["verdict"] = verdict_summary(*d.verdict);
  return s;
}

RunEnd run_end(const doc::BenchDocument& d) {
  return RunEnd{d.verdict ? doc::exit_code(*d.verdict) : 0, run_end_summary(d)};
}

}  // namespace p2p::session
