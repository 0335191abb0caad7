// The records of `p2pcheck infer`'s results document (p2pcheck.infer, document/infer_document.hpp):
// the model and its all-reduce plan, what one measured group yields per message with P2P on and
// off, its CUDA IPC pairs, the ranking per TP size and the budget verdicts. Plain data with its
// JSON; infer/ computes them (plan.hpp, results.hpp, ranking.hpp, budget.hpp).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/data_type.hpp"
#include "document/outcome.hpp"

namespace p2p::doc {

// A decode step carries one token per sequence; a prefill pass the whole prompt.
enum class InferPhase { kDecode, kPrefill };
std::string to_string(InferPhase p);              // "decode" | "prefill"
InferPhase parse_phase(const std::string& text);  // InputError naming `phase` otherwise

struct InferMessage {
  InferPhase phase = InferPhase::kDecode;
  std::uint64_t tokens = 0;  // decode: the batch (one token per sequence); prefill: prompt tokens
  std::uint64_t bytes = 0;   // tokens x hidden x dtype bytes
};

// "decode_b32", "prefill_t2048": the key of a message in tables, budgets and documents.
std::string message_name(const InferMessage& m);

// The shape of the model whose tensor-parallel all-reduces are measured.
struct ModelShape {
  std::string source;  // the config file, or "--hidden" for a shape given on the command line
  std::string name;    // `model_type` (of the text model where nested), or "" where absent
  std::uint64_t hidden = 0;
  int layers = 0;
  DataType dtype = DataType::kBfloat16;
  // Where in the file the numbers came from ("hidden_size" or "text_config.hidden_size").
  std::string hidden_key;
  std::string layers_key;
  std::string dtype_key;  // "torch_dtype", "dtype", or "--dtype" when the command line overrode it
};

struct InferPlan {
  ModelShape model;
  std::vector<int> tp_sizes;           // ascending, distinct, each >= 2
  std::vector<InferMessage> messages;  // decode batches ascending, then prefill lengths ascending
  int calls_per_step = 0;  // 2 x layers: all-reduces per generated token or per prefill pass
};

// Nearest-rank percentiles of per-call times. spread = p99 / p50: how much worse the slow calls
// are than the typical one (1.0 = perfectly steady); a decode step waits for its slowest call.
struct LatencySummary {
  std::uint64_t calls = 0;
  double min_us = 0, p50_us = 0, p90_us = 0, p99_us = 0, max_us = 0, mean_us = 0;
  double spread = 0;
};

struct MessageResult {
  std::string message;  // message_name()
  InferPhase phase = InferPhase::kDecode;
  std::uint64_t tokens = 0;
  std::uint64_t bytes = 0;
  MessageStatus status = MessageStatus::kOk;
  std::string detail;
  std::optional<LatencySummary> latency;
  std::optional<double> busbw_gbps;  // nccl-tests' all_reduce bus bandwidth at p50
  // calls_per_step x p50: the all-reduce time of one generated token (decode) or of one prefill
  // pass.
  std::optional<double> step_us;
};

// Writer rank maps the owner's buffer through CUDA IPC and writes it from its own GPU; the
// owner reads it back.
struct IpcPairResult {
  int writer_rank = 0;
  int owner_rank = 0;
  int writer_gpu = 0;  // CUDA ordinal (or logical GPU id) the rank ran on
  int owner_gpu = 0;
  IpcStatus status = IpcStatus::kOk;
  std::string detail;  // why not, when not ok
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
  std::string signature;                 // infer/groups.hpp
  std::string worst_path;
  std::string description;
  int alike = 1;
  std::vector<IpcPairResult> ipc;  // every ordered pair; empty when not checked
  GroupRun p2p_on;
  std::optional<GroupRun> p2p_off;
};

// The message of `run` named `name`; nullptr where absent.
const MessageResult* find_message(const GroupRun& run, const std::string& name);

struct RankedGroup {
  std::size_t group = 0;                  // index into the results' groups
  std::optional<double> step_us;          // at the ranking message, P2P on; null where not measured
  std::optional<double> p2p_off_step_us;  // the same with P2P off, where measured
};

struct TpRanking {
  int tp = 0;
  std::string message;              // the ranking message
  std::vector<RankedGroup> groups;  // best first; groups without a figure last, in input order
  std::string note;                 // why there is no group ("needs 8 GPUs, 4 usable"), else ""
};

// --budget-us-per-token judged on the recommended group of one TP size at one decode batch.
struct BudgetVerdict {
  int tp = 0;
  std::vector<int> gpus;  // the recommended group's; empty when no group was measured
  std::string message;    // decode_b<batch>
  double budget_us = 0;
  std::optional<double> us_per_token;
  bool pass = false;
  std::string detail;  // "38.2 us <= 40 us", "61.0 us > 40 us", "no group measured: ..."
};

struct MeasureSettings {
  int calls = 0;            // timed calls per message
  int calls_per_graph = 0;  // calls captured in one CUDA graph
  int warmup = 0;
  double timeout_s = 0;
  bool p2p_off = false;    // every group also measured with NCCL_P2P_DISABLE=1
  bool ipc_check = false;  // the CUDA IPC check ran
};

// JSON as results/README.md describes p2pcheck.infer; every reader throws InputError or
// nlohmann's exceptions for a malformed record (the document's reader names the document).
void to_json(nlohmann::json& j, const InferMessage& m);  // with its "name"
void from_json(const nlohmann::json& j, InferMessage& m);
void to_json(nlohmann::json& j, const ModelShape& m);
void from_json(const nlohmann::json& j, ModelShape& m);
void to_json(nlohmann::json& j, const LatencySummary& l);
void from_json(const nlohmann::json& j, LatencySummary& l);
void to_json(nlohmann::json& j, const MessageResult& m);
void from_json(const nlohmann::json& j, MessageResult& m);
void to_json(nlohmann::json& j, const IpcPairResult& p);
void from_json(const nlohmann::json& j, IpcPairResult& p);
void to_json(nlohmann::json& j, const GroupRun& r);
void from_json(const nlohmann::json& j, GroupRun& r);
void to_json(nlohmann::json& j, const GroupResult& g);
void from_json(const nlohmann::json& j, GroupResult& g);
void to_json(nlohmann::json& j, const RankedGroup& g);
void from_json(const nlohmann::json& j, RankedGroup& g);
void to_json(nlohmann::json& j, const TpRanking& r);
void from_json(const nlohmann::json& j, TpRanking& r);
void to_json(nlohmann::json& j, const BudgetVerdict& v);
void from_json(const nlohmann::json& j, BudgetVerdict& v);
void to_json(nlohmann::json& j, const MeasureSettings& m);
void from_json(const nlohmann::json& j, MeasureSettings& m);

}  // namespace p2p::doc
