#include "acceptance/judge.hpp"

#include <algorithm>

#include "acceptance/check_places.hpp"
#include "acceptance/document_view.hpp"
#include "common/byte_size.hpp"
#include "document/case_names.hpp"

namespace p2p::accept {
namespace {

// A policy whose min_judged_bytes is above every copy the run made judges none of its bandwidth:
// a run that measured bandwidth and had none of it judged cannot pass.
void judge_sizes_judged(doc::RunVerdict& v, const doc::BenchDocument& d, std::uint64_t min_bytes) {
  std::uint64_t largest = 0;
  for (const auto& r : d.bandwidth) largest = std::max(largest, r.bytes);
  if (d.bandwidth.empty() || largest >= min_bytes) return;
  add_check(v, doc::Check{"figures",
                          "bandwidth",
                          doc::Outcome::kFail,
                          "no bandwidth figure was judged: the largest copy (" +
                              format_bytes(largest, ByteStyle::kSpaced) +
                              ") is below the policy's min_judged_bytes (" +
                              format_bytes(min_bytes, ByteStyle::kSpaced) + ")",
                          {},
                          {},
                          "",
                          15,
                          "policy",
                          {}});
}

// A model or host section of the policy that matched nothing here is said, as a skipped check
// (in the JSON and JUnit, not among the reasons): a fleet's policy holds sections for other
// hosts, and a typo in a model name ("H2OO") would otherwise judge under the defaults silently.
void note_unused_overrides(doc::RunVerdict& v, const AcceptancePolicy& policy,
                           const std::vector<std::string>& applied,
                           const std::vector<std::string>& gpu_models, const std::string& host) {
  const auto used = [&](const std::string& name) {
    return std::find(applied.begin(), applied.end(), name) != applied.end();
  };
  const auto unused = [&v](const std::string& section, const std::string& what,
                           const std::string& here) {
    add_check(v, doc::Check{"policy",
                            section,
                            doc::Outcome::kSkipped,
                            what + " (" + (here.empty() ? std::string("none recorded") : here) +
                                "): its settings were not used",
                            {},
                            {},
                            "",
                            90,
                            "policy",
                            {}});
  };
  std::string models;
  for (const auto& m : gpu_models) models += (models.empty() ? "" : ", ") + m;
  for (const auto& m : policy.models)
    if (!used("models." + m.pattern))
      unused("models." + m.pattern, "matches no GPU model of this run", models);
  for (const auto& h : policy.hosts)
    if (!used("hosts." + h.pattern))
      unused("hosts." + h.pattern, "matches not this run's host", host);
}

}  // namespace

doc::RunVerdict judge_document(const doc::BenchDocument& d, const AcceptancePolicy& policy,
                               const RunFacts& facts, const std::string& judged_by) {
  const DocumentView view(d);
  std::vector<std::string> applied;
  const Settings settings = settings_for(policy, view.gpu_models(), d.hostname, &applied);
  doc::RunVerdict v;
  v.judged_by = judged_by;
  v.policy = policy.source;
  for (const auto& a : applied) v.policy += " + " + a;
  note_unused_overrides(v, policy, applied, view.gpu_models(), d.hostname);
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
  judge_sizes_judged(v, d, settings.thresholds.min_judged_bytes);
  if (d.bandwidth.empty() && d.latency.empty() && !d.nccl && d.p2p_access.size() < 2)
    add_check(v, doc::Check{"figures",
                            "run",
                            doc::Outcome::kFail,
                            "the document holds no figure: nothing was measured",
                            {},
                            {},
                            "",
                            15,
                            "run",
                            {}});
  add_places(v, view);
  return v;
}

doc::RunVerdict verdict_of(const doc::BenchDocument& d, const std::string& reader) {
  if (d.verdict) return *d.verdict;
  return judge_document(d, AcceptancePolicy{}, RunFacts{},
                        reader + " (judged on reading, default policy)");
}

void judge_caveats_as_a_whole_run(doc::RunVerdict& v, const std::vector<std::string>& allowed) {
  const std::vector<doc::Caveat> caveats = v.caveats;
  for (const auto& c : caveats) {
    const std::string word = doc::to_string(c.kind);
    const bool judged = std::any_of(v.checks.begin(), v.checks.end(), [&](const doc::Check& k) {
      return k.rule == "caveat" && k.subject == word;
    });
    if (judged) continue;  // a verdict judged as a whole run already
    const bool ok = std::find(allowed.begin(), allowed.end(), word) != allowed.end();
    const std::string text =
        "the run is " + word + (c.detail.empty() ? "" : " (" + c.detail + ")") +
        (ok ? ": accepted with --allow-caveat " + word
            : ": it cannot pass as a whole run (--allow-caveat " + word + " accepts it)");
    add_check(v, doc::Check{"caveat",
                            word,
                            ok ? doc::Outcome::kWarn : doc::Outcome::kFail,
                            text,
                            {},
                            {},
                            "",
                            1,
                            "run",
                            {}});
  }
}

void mark_not_meaningful(doc::BenchDocument& d) {
  if (d.logical_gpus > 0) {
    for (auto& r : d.bandwidth) {
      if (r.ceiling_link == "same device" && r.not_meaningful.empty())
        r.not_meaningful = "logical GPUs of one device: the copy crosses no link";
    }
    for (auto& l : d.latency) {
      if (l.case_name == doc::cases::kLatencyPeer && l.not_meaningful.empty())
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
