// How a measuring run ends: the results document it has just written is judged
// (acceptance/judge.hpp) and the verdict recorded in it, so every output of the run — the text,
// the JSON document, JUnit, JSON lines — carries the same one; the exit code is the verdict's
// (document/verdict.hpp exit_code). Pure but for reading which signal stopped the run.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "acceptance/policy.hpp"
#include "document/bench_document.hpp"

namespace p2p::session {

// Marks the figures that mean nothing on this host, judges the document under `policy`, and
// stores the verdict in it. `interrupt_signal`: the signal that stopped the run, 0 for none.
const doc::RunVerdict& judge_measured(doc::BenchDocument& d, const accept::AcceptancePolicy& policy,
                                      std::optional<int> expect_gpus, int interrupt_signal,
                                      const std::string& command);

// A verdict as the run_end JSON line carries it: its headline, outcome, first five reasons and
// its caveats.
nlohmann::json verdict_summary(const doc::RunVerdict& v);

// The fields of the run_end JSON line: the verdict (its headline, outcome, first reasons and
// caveats) and the figure counts a monitoring job reads without the document.
nlohmann::json run_end_summary(const doc::BenchDocument& d);

struct RunEnd {
  int exit_code = 0;
  nlohmann::json summary;  // run_end_summary
};
// A judged document's exit code (its verdict's) and run_end fields.
RunEnd run_end(const doc::BenchDocument& d);

}  // namespace p2p::session
