// The results document of `p2pcheck infer` (schema p2pcheck.infer; results/README.md documents
// every field): the model and plan, how it was measured, every group with its IPC pairs and its
// messages with P2P on and off, the ranking per TP size and the budget verdicts. Version 2 added
// what every measuring command records: `tool_version`, the `gate` in front of the run and
// `skip_gate`, `gpu_sharing`, `interrupted`, and the run's one `verdict`. Version 1 is still read
// (those fields empty, its verdict null). Pure to_json/from_json, round-trip tested.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "document/gpu_sharing.hpp"
#include "document/infer_records.hpp"
#include "document/verdict.hpp"

namespace p2p::doc {

struct InferDocument {
  static constexpr const char* kSchema = "p2pcheck.infer";
  static constexpr int kVersion = 2;
  static constexpr int kOldestReadableVersion = 1;
  std::string tool_version;  // "" in version 1
  std::string started_utc;
  std::string hostname;
  double wall_s = 0;
  std::string nccl_version;     // "2.28.3"; "" unknown
  std::string topology_source;  // where the groups came from ("this host (hwloc)", "logical")
  // > 0: this many rank processes shared the CUDA devices in `devices` (--logical-gpus): the
  // figures measure the tool and NCCL's network transport on one GPU, not the host's links.
  int logical_gpus = 0;
  std::vector<int> devices;  // CUDA devices the run could use
  GateRecord gate;           // decision null: no gate ran (version 1)
  bool skip_gate = false;
  InferPlan plan;
  MeasureSettings measure;
  std::string ranking_message;
  std::vector<GroupResult> groups;
  std::vector<TpRanking> rankings;
  std::optional<std::string> budget_us_per_token;  // as given
  std::vector<BudgetVerdict> verdicts;
  // Whether another process or p2pcheck run used the measured GPUs meanwhile; null where nobody
  // looked (version 1).
  std::optional<SharingRecord> gpu_sharing;
  // Why the run stopped before its end ("SIGTERM after 2 of 5 groups"); "" for a whole run.
  std::string interrupted;
  std::optional<RunVerdict> verdict;  // null in version 1
};

void to_json(nlohmann::json& j, const InferDocument& d);  // always the current version
// InputError naming the key for a document of another schema, a version outside 1..2, or a
// malformed one.
void from_json(const nlohmann::json& j, InferDocument& d);

}  // namespace p2p::doc
