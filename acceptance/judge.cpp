#include "acceptance/judge.hpp"

#include "acceptance/document_view.hpp"

namespace p2p::accept {

doc::RunVerdict judge_document(const doc::BenchDocument& d, const AcceptancePolicy& policy,
                               const RunFacts& facts, const std::string& judged_by) {
  const DocumentView view(d);
  std::vector<std::string> applied;
  const Settings settings = settings_for(policy, view.gpu_models(), d.hostname, &applied);
  doc::RunVerdict v;
  v.judged_by = judged_by;
  v.policy = policy.source;
  for (const auto& a : applied) v.policy += " + " + a;
  Judging j{view, settings, facts, v};
  judge_run_state(j);
  judge_p2p_available(j);
  if (!d.bandwidth.empty() || !d.latency.empty()) {
    judge_measurements(j);
    judge_floors(j);
    judge_p2p(j);
    judge_p2p_in_effect(j);
    judge_link_ceilings(j);
    judge_outliers(j);
    judge_directions(j);
    judge_stability(j);
  }
  if (d.nccl) judge_nccl(j, *d.nccl);
  if (!d.bandwidth.empty() || !d.latency.empty() || d.nccl) judge_model_references(j);
  if (d.bandwidth.empty() && d.latency.empty() && !d.nccl && d.p2p_access.size() < 2)
    add_check(v, doc::Check{"figures",
                            "run",
                            doc::Outcome::kFail,
                            "the document holds no figure: nothing was measured",
                            {},
                            {},
                            "",
                            15,
                            "run"});
  return v;
}

doc::RunVerdict verdict_of(const doc::BenchDocument& d, const std::string& reader) {
  if (d.verdict) return *d.verdict;
  return judge_document(d, AcceptancePolicy{}, RunFacts{},
                        reader + " (judged on reading, default policy)");
}

void mark_not_meaningful(doc::BenchDocument& d) {
  if (d.logical_gpus > 0) {
    for (auto& r : d.bandwidth) {
      if (r.ceiling_link == "same device" && r.not_meaningful.empty())
        r.not_meaningful = "logical GPUs of one device: the copy crosses no link";
    }
    for (auto& l : d.latency) {
      if (l.case_name == "latency_peer" && l.not_meaningful.empty())
        l.not_meaningful = "logical GPUs of one device: the load crosses no link";
    }
  }
  if (!d.nccl) return;
  const auto mark = [](doc::NcclRun& run) {
    for (auto& r : run.results) {
      if (r.nranks > 1 || !r.not_meaningful.empty()) continue;
      r.not_meaningful = r.in_place ? "one rank, in place: no data moves at all"
                                    : "one rank: the data crosses no link";
    }
  };
  mark(d.nccl->run);
  if (d.nccl->p2p_off) mark(*d.nccl->p2p_off);
}

}  // namespace p2p::accept
