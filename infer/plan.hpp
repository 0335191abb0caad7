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

#include "infer/model_config.hpp"

namespace p2p::infer {

enum class Phase { kDecode, kPrefill };
std::string to_string(Phase p);              // "decode" | "prefill"
Phase parse_phase(const std::string& text);  // InputError otherwise

struct Message {
  Phase phase = Phase::kDecode;
  std::uint64_t tokens = 0;  // decode: the batch (one token per sequence); prefill: prompt tokens
  std::uint64_t bytes = 0;   // tokens x hidden x dtype bytes
};

// "decode_b32", "prefill_t2048": the key of a message in tables, budgets and documents.
std::string message_name(const Message& m);

struct InferPlan {
  ModelShape model;
  std::vector<int> tp_sizes;      // ascending, distinct, each >= 2
  std::vector<Message> messages;  // decode batches ascending, then prefill lengths ascending
  int calls_per_step =
      0;  // 2 x layers: all-reduces per generated token (decode) or per prefill pass
};

// Sorts and deduplicates the lists. InputError for a TP size below 2 (one rank has nothing to
// all-reduce) or above 1024, a batch or prefill length of 0 or above 2^20 tokens, and for no
// message at all.
InferPlan make_plan(const ModelShape& model, std::vector<int> tp_sizes,
                    std::vector<std::uint64_t> batches, std::vector<std::uint64_t> prefill_tokens);

// The largest message: what each rank's buffers must hold.
std::uint64_t largest_message_bytes(const InferPlan& plan);

}  // namespace p2p::infer
