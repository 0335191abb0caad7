#include "session/nccl_run_options.hpp"

#include <chrono>

#include "common/byte_size.hpp"
#include "common/file_io.hpp"
#include "harness/google_benchmark.hpp"
#include "nccl/run/run_options_json.hpp"

namespace p2p::session {

nccl::RunOptions run_options_from_request(const NcclRequest& o) {
  nccl::RunOptions r;
  r.devices = o.devices;
  r.nranks = o.ranks;
  r.rank_processes = o.rank_processes;
  if (!o.collectives.empty()) {
    r.collectives.clear();
    for (const auto& c : o.collectives) r.collectives.push_back(nccl::parse_collective(c));
  }
  r.dtypes.clear();
  for (const auto& t : o.dtypes) r.dtypes.push_back(nccl::parse_data_type(t));
  r.sweep.min_bytes = p2p::parse_bytes(o.min_bytes, "--min-bytes");
  r.sweep.max_bytes = p2p::parse_bytes(o.max_bytes, "--max-bytes");
  r.sweep.step_factor = o.step_factor;
  r.sweep.pairs_every_size = o.full;
  nccl::sweep_sizes(r.sweep);  // reject a bad range before anything starts
  r.measure.iterations = o.iters;
  r.measure.warmup_iterations = o.warmup;
  r.measure.samples = o.samples;
  r.sweep_from_defaults = o.sweep_from_defaults;
  r.measure.cuda_graph = o.graph;
  r.measure.timeout = std::chrono::duration<double>(o.timeout_s);
  r.p2p_disabled = false;
  r.benchmark_args = harness::checked_pass_through("nccl", o.benchmark_args);
  r.buffers = nccl::parse_buffer_allocator(o.buffers);
  return r;
}

nccl::RunOptions p2p_off_options(const nccl::RunOptions& parent, const std::string& nccl_log) {
  nccl::RunOptions off = parent;
  off.p2p_disabled = true;
  off.nccl_log_path = nccl_log.empty() ? "" : nccl_log + ".p2p-off";
  off.benchmark_args.clear();
  for (const auto& b : parent.benchmark_args) {
    if (b.rfind("--benchmark_format=", 0) != 0)
      off.benchmark_args.push_back(b);  // the child's stdout is discarded
  }
  return off;
}

nccl::RunOptions read_p2p_off_options(const std::string& path) {
  // Written by the parent run for this child: its own schema, read leniently; any problem is one
  // line naming the file.
  nccl::RunOptions r =
      load_json_file(path, [](const nlohmann::json& j) { return j.get<nccl::RunOptions>(); });
  r.p2p_disabled = true;
  return r;
}

}  // namespace p2p::session
