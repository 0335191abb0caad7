// `p2pcheck infer`: inference acceptance. Will tensor-parallel serving be fast on this host, and
// on which GPUs? Plans the all-reduce of every decode batch and prefill length of a model, finds
// the GPU groups the topology allows per TP size, measures each (CUDA-graph-captured calls, with
// P2P on and off, plus the CUDA IPC check serving engines run), ranks them and judges a budget.
// `--list` prints the plan without a GPU, in every build.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace p2p::cli {

struct InferCommandOptions {
  std::string model;            // a Hugging Face config.json; else --hidden
  std::uint64_t hidden = 0;     // 0 = not given
  int layers = 80;              // with --hidden (a 70B-class model's depth)
  bool layers_given = false;
  std::string dtype;            // "" = the config's; required with --hidden (default bf16 there)
  std::vector<int> tp_sizes = {2, 4, 8};
  std::vector<std::uint64_t> batches = {1, 8, 32, 128, 256};
  std::vector<std::uint64_t> prefill = {512, 2048, 8192};
  bool no_prefill = false;
  bool list = false;
  std::string topology;  // a topology file for the groups instead of this host's
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
  std::string json;
  std::string html;
};

Command add_infer_command(CLI::App& root);

// `p2pcheck infer-rank --job FILE --rank R`: one rank process of a measured group, started by
// `p2pcheck infer` with the NCCL unique id on standard input. Hidden from --help.
Command add_infer_rank_command(CLI::App& root);

}  // namespace p2p::cli
