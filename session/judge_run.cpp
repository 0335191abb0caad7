#include "session/judge_run.hpp"

#include <ctime>

#include "acceptance/judge.hpp"
#include "acceptance/policy_file.hpp"
#include "common/file_io.hpp"
#include "document/bench_document.hpp"
#include "report/export_input.hpp"
#include "session/machine_outputs.hpp"

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
  accept::judge_caveats_as_a_whole_run(o.verdict, request.allow_caveats);
  o.exit_code = doc::exit_code(o.verdict);
  if (!request.junit.empty() || !request.prom.empty()) {
    report::ExportInput in;
    in.source = request.document;
    in.hostname = d.hostname;
    in.results = d;
    in.results.verdict = o.verdict;
    std::vector<FileToWrite> files{junit_file(request.junit, report::export_suites(in))};
    if (!request.prom.empty())
      files.push_back(
          {request.prom, report::export_prometheus(in, static_cast<double>(std::time(nullptr)))});
    write_text_files_atomically(files);  // replaced together
  }
  return o;
}

void settle_verdict(doc::BenchDocument& d, const std::string& policy, const std::string& reader,
                    const std::vector<std::string>& allow_caveats) {
  if (policy.empty()) {
    if (!d.verdict) d.verdict = accept::verdict_of(d, reader);
  } else {
    const accept::AcceptancePolicy p = accept::read_policy_file(policy).acceptance;
    accept::mark_not_meaningful(d);
    d.verdict = accept::judge_document(d, p, accept::RunFacts{}, reader + " (" + policy + ")");
  }
  accept::judge_caveats_as_a_whole_run(*d.verdict, allow_caveats);
}

}  // namespace p2p::session
