// How a measuring run ends, judged from what it wrote: the exit code and the fields of its
// `run_end` JSON line. Pure functions of the results document and of the signal that stopped
// the run (0 = none), so the policy is tested from kept documents on any host.
#pragma once

#include <nlohmann/json.hpp>

#include "bench/results.hpp"
#include "nccl/results_section.hpp"

namespace p2p::session {

struct RunVerdict {
  int exit_code = 0;
  nlohmann::json summary;  // the run_end line's fields
};

// bench: 128+N after signal N, else 1 when a transfer failed verification, 4 when a case hit
// an error, else 0. Summary: the figure counts, interrupted, gpu_shared.
RunVerdict bench_verdict(const bench::BenchDocument& doc, int interrupt_signal);

// nccl (`report` is the document's `nccl` section): 128+N after signal N, 5 a hang, 4 a rank
// process that died (or sent nothing) while none hung, 1 wrong/error/--min-busbw verdict
// (in either sweep), else 0. Summary: results, interrupted, gpu_shared.
RunVerdict nccl_verdict(const nccl::NcclResultsSection& report, const bench::BenchDocument& doc,
                        int interrupt_signal);

}  // namespace p2p::session
