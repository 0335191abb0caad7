// What `p2pcheck infer` is asked to measure (cli/infer_command.hpp declares the options; the
// gate and the outputs are session/infer_session.hpp's), the plan made from it with every
// option checked, and the plan as --list prints it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "infer/plan.hpp"

namespace p2p::infer {

struct InferOptions {
  std::string model;         // a Hugging Face config.json; else --hidden
  std::uint64_t hidden = 0;  // 0 = not given
  int layers = 80;           // with --hidden (a 70B-class model's depth)
  bool layers_given = false;
  std::string dtype;  // "" = the config's; required with --hidden (default bf16 there)
  std::vector<int> tp_sizes = {2, 4, 8};
  std::vector<std::uint64_t> batches = {1, 8, 32, 128, 256};
  std::vector<std::uint64_t> prefill = {512, 2048, 8192};
  bool no_prefill = false;
  bool list = false;
  std::string topology;      // a topology file for the groups instead of this host's
  std::vector<int> devices;  // CUDA devices the groups may use (default all)
  int logical_gpus = 0;      // > 0: that many rank processes share the devices
  std::size_t max_groups = 4;
  int calls = 2000;           // timed calls per message
  int calls_per_graph = 100;  // calls captured in one CUDA graph
  int warmup = 20;
  double timeout_s = 60.0;
  bool no_p2p_off = false;
  bool no_ipc_check = false;
  std::string budget;  // --budget-us-per-token
  std::optional<std::uint64_t> rank_batch;
};

// The plan from --model or --hidden, with the ranking batch, the budget and the options that
// exclude each other checked too: InputError (exit 2) in every build, before any GPU work.
InferPlan checked_plan(const InferOptions& o);

// What --list prints: the plan and its GPU groups (logical, from --topology, or from this host,
// with a note where this host has no GPU topology).
std::string plan_listing(const InferOptions& o, const InferPlan& plan);

}  // namespace p2p::infer
