// What one measured group yields: per message the latency distribution of a single all-reduce
// (thousands of calls captured in CUDA graphs, as serving engines run decode), the bus bandwidth
// at the median, and the communication cost of one step (2 x layers calls). Pure formulas over
// the document's records.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "document/infer_document.hpp"
#include "infer/plan.hpp"

namespace p2p::infer {

// The records of a measured group are the document's (document/infer_records.hpp and
// document/infer_document.hpp), under the names infer/ has always used.
using doc::find_message;
using doc::GroupResult;
using doc::GroupRun;
using doc::InferDocument;
using doc::IpcPairResult;
using doc::LatencySummary;
using doc::MeasureSettings;
using doc::MessageResult;

// std::invalid_argument for an empty series (a caller bug: a measured message has calls).
LatencySummary summarize_latency(std::vector<double> samples_us);

// A result for `m` from merged per-call times (the slowest rank per call); status ok.
MessageResult measured_message(const Message& m, int tp, int calls_per_step,
                               const std::vector<double>& per_call_us);

}  // namespace p2p::infer
