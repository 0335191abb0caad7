#include "infer/rank_job.hpp"

#include "common/error.hpp"
#include "common/json_util.hpp"

namespace p2p::infer {

void to_json(nlohmann::json& j, const InferRankJob& job) {
  nlohmann::json messages = nlohmann::json::array();
  for (const Message& m : job.messages) {
    messages.push_back({{"phase", to_string(m.phase)}, {"tokens", m.tokens}, {"bytes", m.bytes}});
  }
  j = {{"schema", "p2pcheck.infer_rank_job"},
       {"version", 1},
       {"devices", job.devices},
       {"host_ids", job.host_ids},
       {"messages", messages},
       {"dtype", doc::to_string(job.dtype)},
       {"calls", job.calls},
       {"calls_per_graph", job.calls_per_graph},
       {"warmup", job.warmup},
       {"timeout_s", job.timeout_s},
       {"p2p_disabled", job.p2p_disabled},
       {"ipc_check", job.ipc_check},
       {"work_dir", job.work_dir}};
}

void from_json(const nlohmann::json& j, InferRankJob& job) {
  if (j.value("schema", "") != "p2pcheck.infer_rank_job" || j.value("version", 0) != 1) {
    throw InputError("infer-rank: the job is not a p2pcheck.infer_rank_job version 1");
  }
  job.devices = j.at("devices").get<std::vector<int>>();
  job.host_ids = j.at("host_ids").get<std::vector<std::string>>();
  job.messages.clear();
  for (const auto& m : j.at("messages")) {
    job.messages.push_back(Message{parse_phase(m.at("phase").get<std::string>()),
                                   m.at("tokens").get<std::uint64_t>(),
                                   m.at("bytes").get<std::uint64_t>()});
  }
  job.dtype = doc::parse_data_type(j.at("dtype").get<std::string>(), "dtype");
  job.calls = checked_integer<int>(j.at("calls"), "calls", 1, 1000000);
  job.calls_per_graph = checked_integer<int>(j.at("calls_per_graph"), "calls_per_graph", 1, 10000);
  job.warmup = checked_integer<int>(j.at("warmup"), "warmup", 0, 100000);
  job.timeout_s = j.at("timeout_s").get<double>();
  job.p2p_disabled = j.at("p2p_disabled").get<bool>();
  job.ipc_check = j.at("ipc_check").get<bool>();
  job.work_dir = j.at("work_dir").get<std::string>();
  if (job.host_ids.size() != job.devices.size())
    throw InputError("infer-rank: host_ids and devices differ in length");
}

std::vector<int> graph_sizes(int calls, int per_graph) {
  std::vector<int> out;
  if (per_graph < 1) per_graph = 1;
  for (int left = calls; left > 0; left -= per_graph) out.push_back(std::min(left, per_graph));
  return out;
}

}  // namespace p2p::infer
