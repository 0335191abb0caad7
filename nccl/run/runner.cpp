#include "nccl/run/runner.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <set>

#include "common/cuda_check.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "harness/google_benchmark.hpp"
#include "nccl/benchmark_registration.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/placement.hpp"
#include "nccl/run/rank_process.hpp"
#include "nccl/run/sweep_loop.hpp"
#include "nccl/transport_log.hpp"

namespace p2p::nccl {

int visible_device_count() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    throw NoGpuError(std::string("cudaGetDeviceCount failed: ") + cudaGetErrorName(e) + ": " +
                     cudaGetErrorString(e));
  }
  if (count == 0) throw NoGpuError("no CUDA device is visible");
  return count;
}

std::vector<int> select_devices(const std::vector<int>& requested) {
  const int count = visible_device_count();
  if (requested.empty()) {
    std::vector<int> all(static_cast<std::size_t>(count));
    for (int d = 0; d < count; ++d) all[static_cast<std::size_t>(d)] = d;
    return all;
  }
  std::set<int> seen;
  for (int d : requested) {
    if (d < 0 || d >= count) {
      throw InputError("--devices: device " + std::to_string(d) + " does not exist (" +
                       std::to_string(count) + " visible)");
    }
    if (!seen.insert(d).second)
      throw InputError("--devices: device " + std::to_string(d) + " is listed twice");
  }
  return requested;
}

doc::NcclEnvironment describe_environment(const NcclApi& api, const std::vector<int>& devices,
                                          const EnvMap& user, const EnvMap& ours) {
  doc::NcclEnvironment env;
  int code = 0;
  if (api.get_version(&code) == ncclSuccess) {
    env.nccl_library_version_code = code;
    env.nccl_library_version = doc::format_nccl_version(code);
  }
  env.nccl_library_path = api.library_path;
  env.nccl_header_version_code = NCCL_VERSION_CODE;
  env.nccl_header_version = doc::format_nccl_version(NCCL_VERSION_CODE);
  int v = 0;
  if (cudaDriverGetVersion(&v) == cudaSuccess) env.cuda_driver_version = v;
  if (cudaRuntimeGetVersion(&v) == cudaSuccess) env.cuda_runtime_version = v;
  env.nccl_env_user = user;
  env.nccl_env_p2pcheck = ours;
  for (std::size_t r = 0; r < devices.size(); ++r) {
    doc::DeviceRecord d;
    d.rank = static_cast<int>(r);
    d.cuda_device = devices[r];
    char bus[32] = {};
    P2P_CHECK(cudaDeviceGetPCIBusId(bus, sizeof(bus), devices[r]));
    d.pci_bus_id = bus;
    cudaDeviceProp prop{};
    P2P_CHECK(cudaGetDeviceProperties(&prop, devices[r]));
    d.name = prop.name;
    env.devices.push_back(d);
  }
  env.hostname = host_name();
  return env;
}

RunOptions shared_device_sweep(RunOptions o) {
  o.sweep.min_bytes = 64ull << 10;
  o.sweep.max_bytes = 4ull << 20;
  o.sweep.step_factor = 4;
  o.measure.iterations = 5;
  o.measure.warmup_iterations = 2;
  o.measure.samples = std::min(o.measure.samples, o.measure.iterations);
  o.sweep_from_defaults = false;
  return o;
}

std::vector<PlannedCase> selected_plan(const RunOptions& o, int nranks) {
  harness::initialize_benchmark("nccl", o.benchmark_args);
  const harness::NameFilter filter(benchmark::GetBenchmarkFilter());
  std::vector<PlannedCase> plan;
  for (const PlannedCase& c : plan_cases(o.collectives, o.dtypes, sweep_sizes(o.sweep), nranks,
                                         o.sweep.pairs_every_size)) {
    if (filter.matches(benchmark_name(c))) plan.push_back(c);
  }
  harness::require_selection("nccl", plan.size(), benchmark::GetBenchmarkFilter());
  return plan;
}

doc::CollectiveResult make_result(const PlannedCase& c, int nranks, const Measurement& m,
                                  const RunOptions& o) {
  doc::CollectiveResult r;
  r.collective = to_string(c.op.collective);
  r.dtype = to_string(c.op.dtype);
  r.in_place = c.in_place;
  r.nranks = nranks;
  if (c.op.collective == Collective::kBroadcast) r.root = c.op.root;
  if (c.op.collective == Collective::kSendRecvPair) {
    r.src_rank = c.op.src_rank;
    r.dst_rank = c.op.dst_rank;
  }
  r.size_bytes = c.shape.size_bytes;
  r.count = c.shape.count;
  r.p2p_disabled = o.p2p_disabled;
  r.cuda_graph = o.measure.cuda_graph;
  r.warmup_iterations = o.measure.warmup_iterations;
  r.iterations = o.measure.iterations;
  r.timing_samples = timing_groups(o.measure);
  r.status = m.status;
  r.detail = m.detail;
  r.time_us = m.time_us;
  r.wrong_elements = m.wrong_elements;
  if (m.time_us && *m.time_us > 0.0) {
    const double seconds = *m.time_us * 1e-6;
    r.algbw_gbps = algbw_gbps(c.shape.algbw_bytes, seconds);
    r.busbw_gbps = busbw_gbps(c.op.collective, nranks, c.shape.algbw_bytes, seconds);
  }
  return r;
}

namespace {

// As nccl-tests: every operation once at its largest size before anything is timed. A warm-up
// that hangs or fails ends the warm-ups; the loop forms a fresh clique for the first case.
void warm_up_every_operation(SweepLoop& loop, const std::vector<PlannedCase>& plan) {
  for (const PlannedCase& c : largest_per_operation(plan)) {
    if (interrupt_signal() != 0 || loop.warm_up(c, benchmark_name(c))) break;
  }
}

}  // namespace

doc::NcclRun run_nccl_sweep(const RunOptions& o, const Progress& progress) {
  if (o.nccl_log_path.empty()) throw InputError("nccl: no path for NCCL's log");
  // Flags first: a bad one costs nothing and touches no GPU.
  harness::initialize_benchmark("nccl", o.benchmark_args);
  const std::vector<int> selected = select_devices(o.devices);
  const RankPlacement placement =
      place_ranks(o.nranks > 0 ? o.nranks : static_cast<int>(selected.size()), selected);
  if (placement.shares_device && o.sweep_from_defaults) {
    return run_rank_processes(shared_device_sweep(o), placement, progress);
  }
  if (o.rank_processes || placement.shares_device)
    return run_rank_processes(o, placement, progress);

  // Record the user's NCCL_* before adding ours; NCCL reads them at its first call below.
  const EnvMap user = nccl_variables(current_environment());
  const EnvMap ours = nccl_settings(o.nccl_log_path, o.p2p_disabled);
  apply_environment(ours);

  const NcclApi& api = nccl_api();
  const std::vector<int> devices = rank_devices(placement);
  const int n = static_cast<int>(devices.size());

  doc::NcclRun run;
  run.p2p_disabled = o.p2p_disabled;
  run.environment = describe_environment(api, devices, user, ours);

  const std::vector<PlannedCase> plan = selected_plan(o, n);
  {
    // Shared by every registered benchmark of this sweep, in plan order. This process holds
    // every rank: a hung or failed case's clique is replaced, and the sweep goes on.
    const auto fresh_clique = [&api, devices, timeout = o.measure.timeout] {
      return std::make_unique<Clique>(api, devices, timeout);
    };
    auto loop = std::make_shared<SweepLoop>(fresh_clique(), buffer_bytes(plan), o.buffers,
                                            o.measure, SweepGroup{false, fresh_clique});
    run.environment.buffer_allocator = loop->buffers().allocator;
    warm_up_every_operation(*loop, plan);
    register_nccl_benchmarks(plan, timing_groups(o.measure), [&, loop](const PlannedCase& c) {
      if (interrupt_signal() != 0) {  // stopping: nothing more is measured, nothing is recorded
        MeasuredCase skipped;
        skipped.not_measured = "interrupted: not measured";
        return skipped;
      }
      const Measurement m = loop->measure(c, o.before_case);
      run.results.push_back(make_result(c, n, m, o));
      if (o.on_result) o.on_result(run.results.back());
      return MeasuredCase{run.results.back(), m.sample_us, ""};
    });
    harness::run_registered_benchmarks(
        o.benchmark_args, plan.size(),
        {progress.out, progress.terminal, progress.label + ": ", describe_nccl_run});
  }
  const auto text = try_read_text_file(o.nccl_log_path);
  run.transport = transport_matrix(parse_nccl_log(text.value_or("")), n);
  return run;
}

}  // namespace p2p::nccl
