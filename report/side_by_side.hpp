// Two results documents on one page, for the questions that come in pairs: the VFIO VM beside
// the LXC container on the same host, or the baseline beside tonight's run. The comparison's
// verdict and its suspect first, then both hosts and their gates, what changed figure by figure
// (worst first, each with why), then each matrix of the baseline beside the run's and the
// change between them as a heatmap of its own. A pure function of the two
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
