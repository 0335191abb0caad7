// `p2pcheck infer`: inference acceptance. Will tensor-parallel serving be fast on this host, and
// on which GPUs? Plans the all-reduce of every decode batch and prefill length of a model, finds
// the GPU groups the topology allows per TP size, measures each (CUDA-graph-captured calls, with
// P2P on and off, plus the CUDA IPC check serving engines run), ranks them and judges a budget.
// `--list` prints the plan without a GPU, in every build.
#pragma once

#include "cli/command.hpp"

namespace p2p::cli {

Command add_infer_command(CLI::App& root);

// `p2pcheck infer-rank --job FILE --rank R`: one rank process of a measured group, started by
// `p2pcheck infer` with the NCCL unique id on standard input. Hidden from --help.
Command add_infer_rank_command(CLI::App& root);

}  // namespace p2p::cli
