// Two results documents on one page, for the questions that come in pairs: the VFIO VM beside
// the LXC container on the same host, or the baseline beside tonight's run. Both hosts and
// their gates, what changed figure by figure with the pairs that regressed or lost P2P first,
// then each matrix of one beside the same matrix of the other. A pure function of the two
// documents; no scripts, nothing fetched, like the one-document report.
#pragma once

#include <string>

#include "document/bench_document.hpp"
#include "report/compare.hpp"

namespace p2p::report {

// InputError as compare_runs gives it (a bench document against an nccl one, a malformed
// NCCL section). A run on logical GPUs beside a physical one is shown, and said to be.
std::string render_side_by_side(const doc::BenchDocument& a, const std::string& a_name,
                                const doc::BenchDocument& b, const std::string& b_name,
                                CompareOptions options);

}  // namespace p2p::report
