#include "nccl/run/run_options_json.hpp"

#include "nccl/json_util.hpp"

namespace p2p::nccl {

std::string to_string(BufferAllocator a) {
  switch (a) {
    case BufferAllocator::kAuto: return "auto";
    case BufferAllocator::kNcclMemAlloc: return "ncclMemAlloc";
    case BufferAllocator::kCudaMalloc: return "cudaMalloc";
  }
  return "auto";
}

void to_json(nlohmann::json& j, const MeasureOptions& o) {
  j = {{"warmup_iterations", o.warmup_iterations},
       {"iterations", o.iterations},
       {"samples", o.samples},
       {"cuda_graph", o.cuda_graph},
       {"verify", o.verify},
       {"timeout_s", o.timeout.count()},
       {"plant_wrong_rank", o.plant_wrong_rank}};
}

void from_json(const nlohmann::json& j, MeasureOptions& o) {
  o.warmup_iterations = j.at("warmup_iterations").get<int>();
  o.iterations = j.at("iterations").get<int>();
  o.samples = j.at("samples").get<int>();
  o.cuda_graph = j.at("cuda_graph").get<bool>();
  o.verify = j.at("verify").get<bool>();
  o.timeout = std::chrono::duration<double>(j.at("timeout_s").get<double>());
  o.plant_wrong_rank = j.at("plant_wrong_rank").get<int>();
}

void to_json(nlohmann::json& j, const RunOptions& o) {
  std::vector<std::string> collectives, dtypes;
  for (Collective c : o.collectives) collectives.push_back(to_string(c));
  for (DataType t : o.dtypes) dtypes.push_back(to_string(t));
  j = {{"schema", "p2pcheck.nccl_run_options"},
       {"version", 1},
       {"devices", o.devices},
       {"nranks", o.nranks},
       {"rank_processes", o.rank_processes},
       {"collectives", collectives},
       {"dtypes", dtypes},
       {"sweep",
        {{"min_bytes", o.sweep.min_bytes},
         {"max_bytes", o.sweep.max_bytes},
         {"step_factor", o.sweep.step_factor},
         {"pairs_every_size", o.sweep.pairs_every_size}}},
       {"measure", o.measure},
       {"p2p_disabled", o.p2p_disabled},
       {"nccl_log_path", o.nccl_log_path},
       {"benchmark_args", o.benchmark_args},
       {"buffers", to_string(o.buffers)}};
}

void from_json(const nlohmann::json& j, RunOptions& o) {
  require_schema(j, "p2pcheck.nccl_run_options", 1);
  o.devices = j.at("devices").get<std::vector<int>>();
  o.nranks = j.at("nranks").get<int>();
  o.rank_processes = j.at("rank_processes").get<bool>();
  o.collectives.clear();
  for (const auto& c : j.at("collectives"))
    o.collectives.push_back(parse_collective(c.get<std::string>()));
  o.dtypes.clear();
  for (const auto& t : j.at("dtypes")) o.dtypes.push_back(parse_data_type(t.get<std::string>()));
  const auto& s = j.at("sweep");
  o.sweep.min_bytes = s.at("min_bytes").get<std::uint64_t>();
  o.sweep.max_bytes = s.at("max_bytes").get<std::uint64_t>();
  o.sweep.step_factor = s.at("step_factor").get<std::uint64_t>();
  o.sweep.pairs_every_size = s.at("pairs_every_size").get<bool>();
  o.measure = j.at("measure").get<MeasureOptions>();
  o.p2p_disabled = j.at("p2p_disabled").get<bool>();
  o.nccl_log_path = j.at("nccl_log_path").get<std::string>();
  o.benchmark_args = j.at("benchmark_args").get<std::vector<std::string>>();
  o.buffers = parse_buffer_allocator(j.at("buffers").get<std::string>());
}

}  // namespace p2p::nccl
