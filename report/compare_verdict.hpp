// The comparison's verdict: what was true of each run (its caveats) decides whether the run may
// stand in for the baseline at all, then every figure's change is a check. Pure.
#pragma once

#include "document/bench_document.hpp"
#include "report/compare.hpp"

namespace p2p::report {

// Fills each figure's outcome and c.verdict. A caveat of the run fails the comparison unless
// --allow-caveat names it, or (for logical GPUs, unverified or waived figures and an overridden
// gate) the baseline carries the same: two runs that both waived P2P can still be compared.
// An interrupted or shared run never compares as whole.
void judge_comparison(Comparison& c, const doc::BenchDocument& baseline,
                      const doc::BenchDocument& run, const CompareOptions& options);

}  // namespace p2p::report
