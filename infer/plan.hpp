// What `p2pcheck infer` measures for one model: the all-reduce message of every decode batch
// and prefill length, and the tensor-parallel sizes. Pure.
//
// A tensor-parallel transformer layer all-reduces its activations twice (after attention and
// after the MLP), each time tokens x hidden elements. A decode step carries one token per
// sequence, so its message is batch x hidden x dtype bytes; a prefill pass carries the whole
// prompt, tokens x hidden x dtype bytes. Each step makes 2 x layers such calls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "document/infer_records.hpp"
#include "infer/model_config.hpp"

namespace p2p::infer {

// The plan's records are the document's (document/infer_records.hpp), under the names infer/
// has always used.
using Phase = doc::InferPhase;
using Message = doc::InferMessage;
using doc::InferPlan;
using doc::message_name;
using doc::parse_phase;

// Sorts and deduplicates the lists. InputError for a TP size below 2 (one rank has nothing to
// all-reduce) or above 1024, a batch or prefill length of 0 or above 2^20 tokens, and for no
// message at all.
InferPlan make_plan(const ModelShape& model, std::vector<int> tp_sizes,
                    std::vector<std::uint64_t> batches, std::vector<std::uint64_t> prefill_tokens);

// The largest message: what each rank's buffers must hold.
std::uint64_t largest_message_bytes(const InferPlan& plan);

}  // namespace p2p::infer
