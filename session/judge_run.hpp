// `p2pcheck judge DOCUMENT`: a kept bench or nccl document judged again, under a policy of the
// user's (per GPU model, per host, a tighter floor) or the default one, on any host. The
// document is read, never written: its own stored verdict is what the run said; this is what the
// policy says now.
#pragma once

#include <optional>
#include <string>

#include "document/verdict.hpp"

namespace p2p::session {

struct JudgeRequest {
  std::string document;            // a bench or nccl --json document
  std::string policy;              // --policy FILE ("" = the default acceptance policy)
  std::optional<int> expect_gpus;  // --expect-gpus N
};

struct JudgeOutcome {
  doc::RunVerdict verdict;
  std::string stored_headline;  // the document's own verdict's headline, "" when it has none
  int exit_code = 0;            // the verdict's (document/verdict.hpp exit_code)
};

// InputError for a missing or malformed document or policy.
JudgeOutcome run_judge(const JudgeRequest& request);

}  // namespace p2p::session
