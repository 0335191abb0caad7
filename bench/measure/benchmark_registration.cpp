#include "bench/measure/benchmark_registration.hpp"

#include <cstdio>
#include <optional>

#include "bench/measure/affinity.hpp"
#include "bench/measure/cases.hpp"
#include "bench/measure/records.hpp"
#include "bench/measure/sweep_plan.hpp"
#include "common/interrupt.hpp"

namespace p2p::bench {
namespace {

std::vector<int> local_cpus(const BenchContext& ctx, int ordinal) {
  const topo::Gpu* g = ctx.topology_gpu(ordinal);
  if (g == nullptr || g->cpuset.empty()) return {};
  return parse_cpu_list(g->cpuset).value_or(std::vector<int>{});
}

// Measures one (case, route, size) and reports it to both the collector and the benchmark.
void run_one(benchmark::State& st, const Case& c, const Route& route,
             const std::vector<Lane>& lanes, std::uint64_t bytes, const BenchContext& ctx,
             const BenchOptions& opt, Collector& col) {
  if (interrupt_signal() != 0) {  // stopping: nothing more is measured, nothing is recorded
    st.SkipWithError("not measured: interrupted");
    return;
  }
  Measured m;
  try {
    std::optional<ScopedCpuAffinity> pinned;
    if (opt.cpu_affinity) {
      const int issuer = lanes.front().issuer;
      pinned.emplace(local_cpus(ctx, issuer));
      if (!pinned->applied())
        col.warn("CPU affinity for gpu" + std::to_string(issuer) +
                 " not set: " + pinned->problem());
    }
    m = c.time(lanes, bytes, opt.measure);
  } catch (const std::exception& e) {
    if (c.metric == Metric::kBandwidth) {
      for (const auto& r : unmeasured_bandwidth_records(c, route, lanes, bytes,
                                                        doc::FigureStatus::kError, e.what(), ctx))
        col.add(r);
    } else {
      col.add(unmeasured_latency_record(c, route, doc::FigureStatus::kError, e.what(), ctx));
    }
    st.SkipWithError(e.what());
    return;
  }

  std::vector<double> iteration_s;  // what Google Benchmark sees per iteration (= sample)
  std::string failure;
  if (c.metric == Metric::kBandwidth) {
    const auto records = bandwidth_records(c, route, lanes, bytes, m, ctx);
    for (const auto& r : records) col.add(r);
    const doc::BandwidthResult& headline = records.back();  // the single figure, or the total
    const auto& seconds = lanes.size() > 1 ? m.total_seconds : m.lanes[0].seconds;
    for (double s : seconds) iteration_s.push_back(s / m.copies_per_sample);
    if (headline.median_gbps) st.counters["median_gbps"] = *headline.median_gbps;
    if (headline.spread_pct) st.counters["spread_pct"] = *headline.spread_pct;
    if (headline.achieved_pct) st.counters["achieved_pct"] = *headline.achieved_pct;
    st.counters["bad_words"] = static_cast<double>(headline.bad_words);
    if (headline.status == doc::FigureStatus::kFailed) failure = headline.detail;
  } else {
    const doc::LatencyResult r = latency_record(c, route, m, ctx);
    col.add(r);
    for (double ns : m.latency_ns) iteration_s.push_back(ns * 1e-9);
    if (r.median_ns) st.counters["median_ns"] = *r.median_ns;
    if (r.spread_pct) st.counters["spread_pct"] = *r.spread_pct;
    if (r.status == doc::FigureStatus::kFailed) failure = r.detail;
  }
  harness::replay_samples(st, iteration_s);
  if (c.metric == Metric::kBandwidth) {
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(bytes) *
                         static_cast<int64_t>(lanes.size()));
  }
  if (!failure.empty()) st.SkipWithError(failure.c_str());
}

}  // namespace

std::size_t register_benchmarks(std::shared_ptr<const BenchContext> ctx,
                                const BenchOptions& options, const harness::NameFilter& filter,
                                std::shared_ptr<Collector> collector) {
  std::size_t registered = 0;
  auto opts = std::make_shared<const BenchOptions>(options);
  if (const std::string note = repeated_host_routes_note(*ctx, options.full_sweep); !note.empty())
    collector->warn(note);
  for (const Case& c : all_cases()) {
    const std::vector<Route> routes = routes_for(c.shape, ctx->gpus);
    const auto route_sizes =
        plan_route_sizes(*ctx, routes, options.sizes_bytes, options.full_sweep);
    std::vector<std::vector<Lane>> route_lanes;
    for (const Route& r : routes) route_lanes.push_back(c.lanes(r));
    const std::vector<bool> measure = routes_to_measure(*ctx, route_lanes, options.full_sweep);
    for (std::size_t k = 0; k < routes.size(); ++k) {
      if (!measure[k]) continue;
      const Route& route = routes[k];
      const std::vector<Lane>& lanes = route_lanes[k];
      const std::optional<std::string> waiver = c.waive(*ctx, route);
      std::vector<std::optional<std::uint64_t>> sizes;
      if (c.metric == Metric::kBandwidth) {
        for (std::uint64_t b : route_sizes[k]) sizes.emplace_back(b);
      } else {
        sizes.emplace_back(std::nullopt);
      }
      for (const auto& size : sizes) {
        const std::string name = benchmark_name(c, route, size);
        if (!filter.matches(name)) continue;
        if (waiver) {
          if (c.metric == Metric::kBandwidth) {
            for (const auto& r : unmeasured_bandwidth_records(
                     c, route, lanes, *size, doc::FigureStatus::kWaived, *waiver, *ctx)) {
              collector->add(r);
            }
          } else {
            collector->add(
                unmeasured_latency_record(c, route, doc::FigureStatus::kWaived, *waiver, *ctx));
          }
          continue;
        }
        const std::uint64_t bytes = size.value_or(0);
        const Case* cp = &c;  // all_cases() is a function-local static: stable for the run
        auto* b = benchmark::RegisterBenchmark(
            name.c_str(), [cp, route, lanes, bytes, ctx, opts, collector](benchmark::State& st) {
              run_one(st, *cp, route, lanes, bytes, *ctx, *opts, *collector);
            });
        b->UseManualTime()->Iterations(options.measure.samples);
        b->Unit(c.metric == Metric::kBandwidth ? benchmark::kMillisecond : benchmark::kNanosecond);
        ++registered;
      }
    }
  }
  return registered;
}

std::string describe_bench_run(const benchmark::BenchmarkReporter::Run& run) {
  char value[64] = {};
  if (const benchmark::Counter* c = harness::find_counter(run, "median_gbps")) {
    std::snprintf(value, sizeof(value), "%.2f GB/s", c->value);
  } else if (const benchmark::Counter* n = harness::find_counter(run, "median_ns")) {
    std::snprintf(value, sizeof(value), "%.1f ns", n->value);
  }
  return value;
}

}  // namespace p2p::bench
