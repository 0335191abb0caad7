// What one measured group yields: per message the latency distribution of a single all-reduce
// (thousands of calls captured in CUDA graphs, as serving engines run decode), the bus bandwidth
// at the median, and the communication cost of one step (2 x layers calls); and per ordered rank
// pair whether CUDA IPC worked. Pure records and the formulas over them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "infer/plan.hpp"

namespace p2p::infer {

// Nearest-rank percentiles of per-call times. spread = p99 / p50: how much worse the slow calls
// are than the typical one (1.0 = perfectly steady); a decode step waits for its slowest call.
struct LatencySummary {
  std::uint64_t calls = 0;
  double min_us = 0, p50_us = 0, p90_us = 0, p99_us = 0, max_us = 0, mean_us = 0;
  double spread = 0;
};

// std::invalid_argument for an empty series (a caller bug: a measured message has calls).
LatencySummary summarize_latency(std::vector<double> samples_us);

struct MessageResult {
  std::string message;  // message_name()
  Phase phase = Phase::kDecode;
  std::uint64_t tokens = 0;
  std::uint64_t bytes = 0;
  std::string status = "ok";  // ok | wrong | hang | error | not_run
  std::string detail;
  std::optional<LatencySummary> latency;
  std::optional<double> busbw_gbps;  // nccl-tests' all_reduce bus bandwidth at p50
  // calls_per_step x p50: the all-reduce time of one generated token (decode) or of one prefill
  // pass.
  std::optional<double> step_us;
};

// A result for `m` from merged per-call times (the slowest rank per call); status ok.
MessageResult measured_message(const Message& m, int tp, int calls_per_step,
                               const std::vector<double>& per_call_us);

// Writer rank maps the owner's buffer through CUDA IPC and writes it from its own GPU; the
// owner reads it back.
struct IpcPairResult {
  int writer_rank = 0;
  int owner_rank = 0;
  int writer_gpu = 0;  // CUDA ordinal (or logical GPU id) the rank ran on
  int owner_gpu = 0;
  std::string status = "ok";  // ok | fail | not_run
  std::string detail;         // why not, when not ok
};

// One group measured in one NCCL setting (P2P on, or NCCL_P2P_DISABLE=1).
struct GroupRun {
  bool p2p_disabled = false;
  std::vector<MessageResult> messages;  // plan order
  std::vector<std::string> problems;    // rank processes that died, were killed or stopped early
};

struct GroupResult {
  int tp = 0;
  std::vector<int> gpus;  // CUDA ordinals of the ranks in rank order (logical ids in a logical run)
  std::vector<std::string> pci_bus_ids;  // of those GPUs, where known
  std::string signature;                 // groups.hpp
  std::string worst_path;
  std::string description;
  int alike = 1;
  std::vector<IpcPairResult> ipc;  // every ordered pair; empty when not checked
  GroupRun p2p_on;
  std::optional<GroupRun> p2p_off;
};

// The message of `run` named `name`; nullptr where absent.
const MessageResult* find_message(const GroupRun& run, const std::string& name);

}  // namespace p2p::infer
