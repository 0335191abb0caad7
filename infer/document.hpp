// The results document of `p2pcheck infer` (schema p2pcheck.infer, version 1; results/README.md
// documents every field): the model and plan, how it was measured, every group with its IPC
// pairs and its messages with P2P on and off, the ranking per TP size and the budget verdicts.
// Pure to_json/from_json, round-trip tested.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "infer/budget.hpp"
#include "infer/plan.hpp"
#include "infer/ranking.hpp"
#include "infer/results.hpp"

namespace p2p::infer {

struct MeasureSettings {
  int calls = 0;            // timed calls per message
  int calls_per_graph = 0;  // calls captured in one CUDA graph
  int warmup = 0;
  double timeout_s = 0;
  bool p2p_off = false;    // every group also measured with NCCL_P2P_DISABLE=1
  bool ipc_check = false;  // the CUDA IPC check ran
};

struct InferDocument {
  static constexpr int kVersion = 1;
  std::string started_utc;
  std::string hostname;
  double wall_s = 0;
  std::string nccl_version;     // "2.28.3"; "" unknown
  std::string topology_source;  // where the groups came from ("this host", "logical")
  // > 0: this many rank processes shared the CUDA devices in `devices` (--logical-gpus): the
  // figures measure the tool and NCCL's network transport on one GPU, not the host's links.
  int logical_gpus = 0;
  std::vector<int> devices;  // CUDA devices the run could use
  InferPlan plan;
  MeasureSettings measure;
  std::string ranking_message;
  std::vector<GroupResult> groups;
  std::vector<TpRanking> rankings;
  std::optional<std::string> budget_us_per_token;  // as given
  std::vector<BudgetVerdict> verdicts;
};

void to_json(nlohmann::json& j, const InferDocument& d);
// InputError naming the key for a document of another schema or version, or a malformed one.
void from_json(const nlohmann::json& j, InferDocument& d);

// The logical-run banner ("" for a run on physical GPUs).
std::string logical_note(const InferDocument& d);

// The run's exit code: a hang is a hang (5); a rank that died without a hang is a failure of
// the run itself (4); wrong data and a missed budget are verdicts against the host (1); else 0.
int exit_code_of(const InferDocument& d);

}  // namespace p2p::infer
