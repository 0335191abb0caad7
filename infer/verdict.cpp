#include "infer/verdict.hpp"

#include <cstdio>
#include <string>

#include "acceptance/grading.hpp"
#include "infer/groups.hpp"
#include "infer/results_text.hpp"

namespace p2p::infer {
namespace {

using doc::CaveatKind;
using doc::Check;
using doc::MessageStatus;
using doc::Outcome;

// Among reasons of one outcome: the order acceptance/grading.hpp gives bench's, then infer's own.
namespace priority {
using namespace accept::priority;  // NOLINT(google-build-using-namespace): one table of ranks
constexpr int kIpc = 65;
constexpr int kBudget = 75;
constexpr int kPassed = 200;
}  // namespace priority

struct Judging {
  const doc::InferDocument& d;
  const InferRunFacts& facts;
  doc::RunVerdict& verdict;
  // What an interrupted run did not reach is skipped: the interruption is the reason.
  bool interrupted() const { return !d.interrupted.empty() || facts.interrupt_signal != 0; }
  void add(const std::string& rule, const std::string& subject, Outcome o,
           const std::string& message, int priority) const {
    Check c;
    c.rule = rule;
    c.subject = subject;
    c.outcome = o;
    c.message = message;
    c.priority = priority;
    add_check(verdict, std::move(c));
  }
};

std::string micros(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f us", v);
  return buf;
}

std::string group_name(const doc::GroupResult& g) {
  return "TP=" + std::to_string(g.tp) + " GPUs " + format_gpu_list(g.gpus);
}

std::string with_detail(const std::string& what, const std::string& detail) {
  return detail.empty() ? what : what + ": " + detail;
}

void judge_message(const Judging& j, const std::string& where, const doc::MessageResult& m) {
  const std::string subject = where + " " + m.message;
  switch (m.status) {
    case MessageStatus::kOk: {
      std::string text = "completed and verified";
      if (m.latency) text += ", p50 " + micros(m.latency->p50_us);
      if (m.step_us)
        text += ", " + micros(*m.step_us) +
                (m.phase == doc::InferPhase::kDecode ? " per token" : " per prefill pass");
      j.add("all_reduce", subject, Outcome::kPass, text, priority::kPassed);
      return;
    }
    case MessageStatus::kWrong:
      j.add("all_reduce", subject, Outcome::kFail,
            with_detail("wrong data after the all-reduce", m.detail), priority::kVerification);
      return;
    case MessageStatus::kHang:
      j.verdict.hung = true;
      j.add("all_reduce", subject, Outcome::kFail,
            with_detail("did not complete within the deadline", m.detail), priority::kHang);
      return;
    case MessageStatus::kError:
      j.add("all_reduce", subject, Outcome::kError, with_detail("failed", m.detail),
            priority::kError);
      return;
    case MessageStatus::kNotRun:
      j.add("all_reduce", subject, j.interrupted() ? Outcome::kSkipped : Outcome::kError,
            with_detail("not measured", j.interrupted() ? "the run was interrupted" : m.detail),
            priority::kError);
      return;
  }
}

// Each message of one setting, then every rank process that did not end well there.
void judge_group_run(const Judging& j, const doc::GroupResult& g, const doc::GroupRun& run) {
  const std::string where = group_name(g) + (run.p2p_disabled ? " (P2P off)" : "");
  for (const auto& m : run.messages) judge_message(j, where, m);
  for (const auto& problem : run.problems)
    j.add("rank_process", where, j.interrupted() ? Outcome::kSkipped : Outcome::kError, problem,
          priority::kError);
}

// A failed pair fails: a serving engine's own P2P all-reduce would not work between them.
void judge_ipc(const Judging& j, const doc::GroupResult& g) {
  if (g.ipc.empty()) return;
  std::size_t passed = 0;
  for (const auto& p : g.ipc) {
    if (p.status == doc::IpcStatus::kOk) {
      ++passed;
      continue;
    }
    const Outcome o = p.status == doc::IpcStatus::kNotRun && j.interrupted() ? Outcome::kSkipped
                                                                             : outcome_of(p.status);
    j.add("cuda_ipc",
          group_name(g) + " rank " + std::to_string(p.writer_rank) + " (GPU " +
              std::to_string(p.writer_gpu) + ") -> rank " + std::to_string(p.owner_rank) +
              " (GPU " + std::to_string(p.owner_gpu) + ")",
          o, with_detail(to_string(p.status), p.detail), priority::kIpc);
  }
  if (passed == g.ipc.size())
    j.add("cuda_ipc", group_name(g), Outcome::kPass,
          std::to_string(passed) + " ordered pair(s): each rank mapped, wrote and read back",
          priority::kPassed);
}

void judge_budgets(const Judging& j) {
  for (const auto& b : j.d.verdicts) {
    Check c;
    c.rule = "budget";
    c.subject = "TP=" + std::to_string(b.tp) + " " + b.message +
                (b.gpus.empty() ? "" : " GPUs " + format_gpu_list(b.gpus));
    c.outcome = b.pass ? Outcome::kPass : Outcome::kFail;
    c.message = b.detail + " (recommended group; --budget-us-per-token " +
                j.d.budget_us_per_token.value_or("") + ")";
    c.value = b.us_per_token;
    c.expected = b.budget_us;
    c.unit = "us";
    c.priority = b.pass ? priority::kPassed : priority::kBudget;
    add_check(j.verdict, std::move(c));
  }
  // A TP size without a group is not measured, and says why (too few GPUs).
  for (const auto& r : j.d.rankings) {
    if (r.groups.empty())
      j.add("groups", "TP=" + std::to_string(r.tp), Outcome::kSkipped,
            "no group measured: " + r.note, priority::kError);
  }
}

void judge_gate_and_gpus(const Judging& j) {
  const doc::InferDocument& d = j.d;
  if (d.skip_gate) {
    const bool blocked = d.gate.reasons && !d.gate.reasons->passed;
    add_caveat(j.verdict, CaveatKind::kGateOverride,
               blocked ? "measured although the gate blocked" : "--skip-gate");
    if (blocked)
      j.add("gate", "run", Outcome::kFail,
            "the gate blocked this host (" + d.gate.detail +
                "); it was measured anyway with --skip-gate",
            priority::kGate);
  }
  if (j.facts.expect_gpus) {
    const int want = *j.facts.expect_gpus;
    j.add("gpu_count", "run", j.facts.gpus_seen < want ? Outcome::kFail : Outcome::kPass,
          "CUDA showed " + std::to_string(j.facts.gpus_seen) + " GPU(s); --expect-gpus " +
              std::to_string(want),
          priority::kGpuCount);
  }
}

void judge_run_state(const Judging& j) {
  const doc::InferDocument& d = j.d;
  j.verdict.interrupt_signal = j.facts.interrupt_signal;
  if (!d.interrupted.empty()) {
    add_caveat(j.verdict, CaveatKind::kInterrupted, d.interrupted);
    j.add("interrupted", "run", Outcome::kFail,
          "the run stopped before its end (" + d.interrupted +
              "): what it did not measure cannot pass",
          priority::kInterrupted);
  }
  if (d.gpu_sharing && d.gpu_sharing->shared) {
    std::string who;
    for (const auto& n : d.gpu_sharing->notes) who += (who.empty() ? "" : "; ") + n;
    add_caveat(j.verdict, CaveatKind::kShared, who);
    j.add("shared", "run", Outcome::kFail,
          "another process or p2pcheck run used a measured GPU meanwhile, so the figures are "
          "not the links': " +
              who,
          priority::kShared);
  }
  judge_gate_and_gpus(j);
  if (d.logical_gpus > 0) {
    add_caveat(j.verdict, CaveatKind::kLogicalGpus, logical_note(d));
    j.add("logical_gpus", "run", Outcome::kNotMeaningful,
          "rank processes shared a GPU: the times measure the tool, not the host's links",
          priority::kGpuCount);
  }
}

}  // namespace

doc::RunVerdict judge_infer(const doc::InferDocument& d, const InferRunFacts& facts) {
  doc::RunVerdict v;
  v.judged_by = "infer";
  v.policy =
      d.budget_us_per_token ? "--budget-us-per-token " + *d.budget_us_per_token : "no budget";
  const Judging j{d, facts, v};
  judge_run_state(j);
  for (const auto& g : d.groups) {
    judge_ipc(j, g);
    judge_group_run(j, g, g.p2p_on);
    if (g.p2p_off) judge_group_run(j, g, *g.p2p_off);
  }
  judge_budgets(j);
  return v;
}

}  // namespace p2p::infer
