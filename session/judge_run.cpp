#include "session/judge_run.hpp"

#include "acceptance/judge.hpp"
#include "acceptance/policy_file.hpp"
#include "document/bench_document.hpp"

namespace p2p::session {

JudgeOutcome run_judge(const JudgeRequest& request) {
  // The policy first: a bad policy is the user's typo, found before the document is parsed.
  const accept::AcceptancePolicy policy = request.policy.empty()
                                              ? accept::AcceptancePolicy{}
                                              : accept::read_policy_file(request.policy).acceptance;
  doc::BenchDocument d = doc::read_bench_document_file(request.document);
  JudgeOutcome o;
  if (d.verdict) o.stored_headline = doc::headline(*d.verdict);
  accept::mark_not_meaningful(d);
  accept::RunFacts facts;
  facts.expect_gpus = request.expect_gpus;
  // The signal that stopped the run is not kept in the document, only that it stopped: the
  // interrupted caveat still fails the verdict, the exit code is the verdict's (1), not 128+N.
  o.verdict = accept::judge_document(d, policy, facts, "judge");
  o.exit_code = doc::exit_code(o.verdict);
  return o;
}

}  // namespace p2p::session
