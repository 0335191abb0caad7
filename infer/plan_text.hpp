// `p2pcheck infer --list`: the plan as text, without a GPU: the model's numbers and where they
// came from, every message with its size and calls per step, and the GPU groups per TP size.
#pragma once

#include <string>
#include <vector>

#include "infer/groups.hpp"
#include "infer/plan.hpp"

namespace p2p::infer {

// `topology_source` says where the groups came from ("live", a file, "logical"); `topology_note`
// replaces the groups where there is no topology (a CPU-only host).
std::string format_plan(const InferPlan& plan, const std::vector<TpGroups>& groups,
                        const std::string& topology_source, const std::string& topology_note);

// "llama (config.json): hidden 8192 (hidden_size), 80 layers (num_hidden_layers), bfloat16
// (torch_dtype)".
std::string describe_model(const ModelShape& m);

}  // namespace p2p::infer
