#include "infer/plan.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "document/data_type.hpp"

namespace p2p::infer {

namespace {

constexpr std::uint64_t kMaxTokens = std::uint64_t{1} << 20;
constexpr int kMaxTp = 1024;

template <class T>
void sort_unique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

void add_messages(InferPlan& plan, Phase phase, std::vector<std::uint64_t> tokens,
                  const std::string& option) {
  sort_unique(tokens);
  const std::uint64_t per_token = plan.model.hidden * doc::element_bytes(plan.model.dtype);
  for (std::uint64_t t : tokens) {
    if (t < 1 || t > kMaxTokens) {
      throw InputError(option + ": " + std::to_string(t) + " is outside 1.." +
                       std::to_string(kMaxTokens) + " tokens");
    }
    plan.messages.push_back(Message{phase, t, t * per_token});
  }
}

}  // namespace

InferPlan make_plan(const ModelShape& model, std::vector<int> tp_sizes,
                    std::vector<std::uint64_t> batches, std::vector<std::uint64_t> prefill_tokens) {
  InferPlan plan;
  plan.model = model;
  plan.calls_per_step = 2 * model.layers;
  sort_unique(tp_sizes);
  if (tp_sizes.empty()) throw InputError("--tp: no tensor-parallel size given");
  for (int tp : tp_sizes) {
    if (tp < 2 || tp > kMaxTp) {
      throw InputError("--tp: " + std::to_string(tp) + " is outside 2.." + std::to_string(kMaxTp) +
                       " (one rank has nothing to all-reduce)");
    }
  }
  plan.tp_sizes = tp_sizes;
  add_messages(plan, Phase::kDecode, std::move(batches), "--batch");
  add_messages(plan, Phase::kPrefill, std::move(prefill_tokens), "--prefill");
  if (plan.messages.empty()) throw InputError("--batch/--prefill: no message to measure");
  return plan;
}

std::uint64_t largest_message_bytes(const InferPlan& plan) {
  std::uint64_t most = 0;
  for (const Message& m : plan.messages) most = std::max(most, m.bytes);
  return most;
}

}  // namespace p2p::infer
