#include "bench/measure/run.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "bench/link_ceiling.hpp"
#include "bench/measure/benchmark_registration.hpp"
#include "bench/measure/gpu_resources.hpp"
#include "bench/measure/records.hpp"
#include "bench/sizes.hpp"
#include "common/cuda_check.hpp"
#include "common/error.hpp"
#include "common/interrupt.hpp"
#include "common/utc_time.hpp"
#include "document/nccl_run.hpp"
#include "document/sweep_summary.hpp"
#include "gpus/cuda_devices.hpp"
#include "kernels/preload.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::bench {
namespace {

doc::GpuRecord gpu_record(const BenchContext& ctx, int ordinal) {
  doc::GpuRecord g;
  const DeviceInfo* d = ctx.device(ordinal);
  g.cuda_ordinal = ctx.placement.device(ordinal);
  if (ctx.placement.logical()) g.logical_gpu = ordinal;
  if (d != nullptr) {
    g.pci_bus_id = d->pci_bus_id;
    if (!d->uuid.empty()) g.uuid = d->uuid;
    g.name = d->name;
    g.cc_major = d->cc_major;
    g.cc_minor = d->cc_minor;
    g.sm_count = d->sm_count;
    g.memory_bytes = d->memory_bytes;
  }
  const Ceiling c = gpu_link_ceiling(ctx, ordinal);
  g.link = c.link;
  g.link_gbps = c.gbps;
  if (const topo::Gpu* t = ctx.topology_gpu(ordinal)) {
    g.numa_node = t->numa_node;
    g.cpuset = t->cpuset;
  }
  return g;
}

}  // namespace

void describe_run_host(doc::BenchDocument& doc, const BenchContext& ctx,
                       const BenchInputs& inputs) {
  if (doc.started_utc.empty()) doc.started_utc = utc_now_iso8601();
  doc.tool_version = P2P_VERSION;
  int driver = 0, runtime = 0;
  P2P_CHECK(cudaDriverGetVersion(&driver));
  P2P_CHECK(cudaRuntimeGetVersion(&runtime));
  doc.hostname = ctx.topology.hostname;
  if (doc.hostname.empty()) {
    char host[256] = {};
    if (gethostname(host, sizeof(host) - 1) == 0) doc.hostname = host;
  }
  doc.nvidia_driver_version = gpus::nvidia_driver_version();
  doc.cuda_driver_version = doc::format_cuda_version(driver);
  doc.cuda_runtime_version = doc::format_cuda_version(runtime);
  doc.environment = ctx.topology.environment.kind;
  doc.topology_source = ctx.topology.source;
  doc.topology = ctx.topology;
  doc.gate = inputs.gate;
  doc.skip_gate = inputs.skip_gate;
  doc.logical_gpus = ctx.placement.logical() ? static_cast<int>(ctx.placement.device_of.size()) : 0;
  for (int g : ctx.gpus) doc.gpus.push_back(gpu_record(ctx, g));
  for (int a : ctx.gpus) {
    doc.p2p_access.emplace_back();
    for (int b : ctx.gpus) doc.p2p_access.back().push_back(ctx.peer_access(a, b));
  }
}

namespace {

// How the figures were taken, the figures, and whether a signal cut the run short.
void record_figures(doc::BenchDocument& doc, const BenchOptions& opts, const Collector& collector) {
  doc.samples = opts.measure.samples;
  doc.warmup_samples = opts.measure.warmup_samples;
  doc.sizes_bytes = opts.sizes_bytes;
  doc.full_sweep = opts.full_sweep;
  doc.cpu_affinity = opts.cpu_affinity;
  doc.host_memory = to_string(opts.measure.host_memory);
  doc.bandwidth = collector.bandwidth();
  doc.latency = collector.latency();
  doc.sweeps = doc::summarize_sweeps(doc.bandwidth);
  doc.warnings = collector.warnings();
  if (const int sig = interrupt_signal()) {
    doc.interrupted = interrupt_name(sig) + " after " +
                      std::to_string(doc.bandwidth.size() + doc.latency.size()) +
                      " figures; the rest were not measured";
  }
}

}  // namespace

BenchOutcome run_bench(const BenchOptions& options, const BenchInputs& inputs,
                       std::ostream& progress) {
  BenchOutcome out;
  doc::BenchDocument& doc = out.document;
  doc.started_utc = utc_now_iso8601();

  auto ctx = std::make_shared<BenchContext>();
  ctx->topology = inputs.topology;
  ctx->inventory = gpus::discover_devices();
  const std::vector<int> devices =
      select_gpus(options.gpus, static_cast<int>(ctx->inventory.devices.size()));
  if (options.logical_gpus > 0) ctx->placement = place_logical_gpus(options.logical_gpus, devices);
  ctx->gpus = gpu_ids(ctx->placement, devices);
  doc.gpu_selection = doc::gpu_selection_text(options.gpus, std::getenv("CUDA_VISIBLE_DEVICES"));
  // Before any figure: with lazy module loading a kernel's first launch would otherwise load its
  // module inside a sample (kernels/preload.hpp).
  for (int device : devices) kernels::preload_bench_kernels(device);

  BenchOptions opts = options;
  if (opts.sizes_bytes.empty()) opts.sizes_bytes = default_sweep_bytes();
  opts.measure.placement = ctx->placement;
  // Both directions of a host<->GPU figure at the largest size stay pinned between figures; what
  // is kept goes when the run ends, however it ends, while the CUDA context is still there (the
  // registered benchmarks hold copies of these options until the process exits).
  const std::uint64_t largest = *std::max_element(opts.sizes_bytes.begin(), opts.sizes_bytes.end());
  opts.measure.host_cache = make_pinned_host_cache(static_cast<std::size_t>(2 * largest));
  struct ReleaseKept {
    std::shared_ptr<PinnedHostCache> cache;
    ~ReleaseKept() { cache->clear(); }
  } release_kept{opts.measure.host_cache};

  harness::initialize_benchmark("bench", opts.benchmark_args);
  const harness::NameFilter filter(benchmark::GetBenchmarkFilter());
  auto collector = std::make_shared<Collector>();
  if (options.on_figure) collector->set_listener(options.on_figure);
  for (int g : ctx->gpus) {
    if (ctx->topology_gpu(g) == nullptr) {
      collector->warn("gpu" + std::to_string(g) + " (" + ctx->device(g)->pci_bus_id +
                      ") is not in the topology snapshot: no link ceiling, no CPU affinity");
    }
  }
  const std::size_t total = register_benchmarks(ctx, opts, filter, collector);
  // Waived figures count as selected: the filter found them, they just cannot be measured here.
  harness::require_selection("bench",
                             total + collector->bandwidth().size() + collector->latency().size(),
                             benchmark::GetBenchmarkFilter());
  out.benchmark_owns_stdout = harness::benchmark_owns_stdout(opts.benchmark_args);
  harness::run_registered_benchmarks(
      opts.benchmark_args, total,
      {&progress, &progress == &std::cerr && isatty(STDERR_FILENO), "", describe_bench_run});

  describe_run_host(doc, *ctx, inputs);
  record_figures(doc, opts, *collector);
  return out;
}

}  // namespace p2p::bench
