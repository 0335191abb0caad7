// `p2pcheck judge DOCUMENT`: a kept bench or nccl document judged again, under a policy of the
// user's (per GPU model, per host, a tighter floor) or the default one, on any host. The
// document is read, never written: its own stored verdict is what the run said; this is what the
// policy says now.
#pragma once

#include <optional>
#include <string>

#include "document/bench_document.hpp"
#include "document/verdict.hpp"

namespace p2p::session {

struct JudgeRequest {
  std::string document;            // a bench or nccl --json document
  std::string policy;              // --policy FILE ("" = the default acceptance policy)
  std::optional<int> expect_gpus;  // --expect-gpus N
  std::string junit;               // --junit FILE: the document with this verdict, as JUnit XML
  std::string prom;                // --prom FILE: ... as a Prometheus textfile
  std::vector<std::string> allow_caveats;  // --allow-caveat KIND: a caveat that does not fail it
};

struct JudgeOutcome {
  doc::RunVerdict verdict;
  std::string stored_headline;  // the document's own verdict's headline, "" when it has none
  int exit_code = 0;            // the verdict's (document/verdict.hpp exit_code)
};

// InputError for a missing or malformed document or policy. Writes --junit and --prom (each
// atomically) with the verdict it returns, so no output disagrees with it.
JudgeOutcome run_judge(const JudgeRequest& request);

// The verdict every output of a kept document shows (report, export): the one `policy` gives
// where one is named ("" = none), else the document's own, else the default policy's, judged now
// (judged_by "<reader> (judged on reading, default policy)"); then, as judge does, each caveat of
// the run fails it as a whole run unless `allow_caveats` names its kind. Written into `d.verdict`.
void settle_verdict(doc::BenchDocument& d, const std::string& policy, const std::string& reader,
                    const std::vector<std::string>& allow_caveats);

}  // namespace p2p::session
