// The text `p2pcheck infer` prints after a run: per group its IPC check and a table of every
// message (latency percentiles, spread, busbw, cost per step, P2P off beside it), then per TP
// size the ranking with the recommendation, then the budget verdicts. Pure.
#pragma once

#include <string>

#include "infer/budget.hpp"
#include "infer/ranking.hpp"
#include "infer/results.hpp"

namespace p2p::infer {

std::string format_results(const InferDocument& d);

// The logical-run banner ("" for a run on physical GPUs).
std::string logical_note(const InferDocument& d);

// "TP=4: GPUs 0-3 (NODE x6; one NUMA node (0), worst path NODE) 38.0 us/token; GPUs 0,1,4,5
// (...) 61.0 us/token"
std::string format_ranking_line(const InferDocument& d, const TpRanking& r);

}  // namespace p2p::infer
