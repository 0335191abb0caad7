// The one verdict of a run: a pure function of its results document and the acceptance policy.
// Every measuring command judges the document it has just written with it, and `report`,
// `compare` and `export` judge a document that has no verdict yet (one written before verdicts
// existed) the same way, so every reader shows the same verdict.
#pragma once

#include <string>

#include "acceptance/policy.hpp"
#include "acceptance/rules.hpp"
#include "document/bench_document.hpp"
#include "document/verdict.hpp"

namespace p2p::accept {

// Every rule over every figure of `d` (bench figures, the NCCL section, or both), with the
// settings `policy` gives for this document's GPU models and host.
doc::RunVerdict judge_document(const doc::BenchDocument& d, const AcceptancePolicy& policy,
                               const RunFacts& facts, const std::string& judged_by);

// The document's own verdict where it has one, else one judged now with the default policy
// (judged_by then says "<reader> (judged on reading, default policy)").
doc::RunVerdict verdict_of(const doc::BenchDocument& d, const std::string& reader);

// A run judged on its own (`judge`), as `merge` judges a host's run and `compare` a run without a
// baseline sharing the caveat: a run with a caveat (logical GPUs, interrupted, shared, unverified,
// waived, gate_override) cannot pass as a whole run, a check that fails naming it, unless
// `allowed` holds its word (--allow-caveat), where the check is a warning.
void judge_caveats_as_a_whole_run(doc::RunVerdict& v, const std::vector<std::string>& allowed);

// Marks the figures that mean nothing on this host, in the document itself, so text, HTML and
// JSON all say so: copies between logical GPUs of one device, and NCCL results of one rank.
void mark_not_meaningful(doc::BenchDocument& d);

}  // namespace p2p::accept
