// What one rank process of `p2pcheck infer` is handed (as a JSON file in a private directory):
// its group, the messages, how to time them, and whether NCCL may use P2P. Pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "document/data_type.hpp"
#include "infer/plan.hpp"

namespace p2p::infer {

struct InferRankJob {
  std::vector<int> devices;  // CUDA device of each rank, in rank order
  std::vector<std::string>
      host_ids;                   // NCCL_HOSTID of each rank ("" = NCCL's own); nccl/placement.hpp
  std::vector<Message> messages;  // plan order
  doc::DataType dtype = doc::DataType::kBfloat16;
  int calls = 2000;           // timed calls per message
  int calls_per_graph = 100;  // calls captured in one graph (the last graph may hold fewer)
  int warmup = 20;
  double timeout_s = 60.0;
  bool p2p_disabled = false;  // NCCL_P2P_DISABLE=1 in every rank process
  bool ipc_check = true;
  std::string work_dir;
};

void to_json(nlohmann::json& j, const InferRankJob& job);  // schema p2pcheck.infer_rank_job v1
void from_json(const nlohmann::json& j,
               InferRankJob& job);  // InputError for another schema/version

// How `calls` split into graphs of at most `per_graph` calls: as many full graphs as fit, then
// the rest (each graph is launched once; the calls of all graphs make the distribution).
std::vector<int> graph_sizes(int calls, int per_graph);

}  // namespace p2p::infer
