// The benchmark cases as data: what is measured, between which endpoints, by which GPU, and
// when a route cannot be measured (waived, with the reason). The harness turns every
// (case, route, size) into one Google Benchmark; nothing here special-cases a name.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/measure/context.hpp"
#include "bench/measure/lane.hpp"
#include "bench/measure/measure.hpp"

namespace p2p::bench {

enum class RouteShape {
  kOrderedPair,    // every (a, b), a != b
  kUnorderedPair,  // every {a, b}, a < b: both directions at once
  kHostToGpu,
  kGpuToHost,
  kHostGpuBoth,   // both directions between host and one GPU at once
  kGpu,           // within one GPU
  kRing,          // all selected GPUs, each to the next
  kAllToOne,      // per target GPU
  kOneToAll,      // per source GPU
  kGpuLoadsHost,  // latency: a GPU loading from host memory
};

// What a figure is about. src/dst are the row and column of its table.
struct Route {
  RouteShape shape = RouteShape::kGpu;
  Endpoint src;
  Endpoint dst;
  std::vector<int> members;   // every GPU taking part, in order (ring order for kRing)
  std::string label() const;  // "gpu0->gpu1", "gpu0<->gpu1", "host->gpu0", "ring", "all->gpu2"
};

using WaiveFn = std::function<std::optional<std::string>(const BenchContext&, const Route&)>;
using LanesFn = std::function<std::vector<Lane>(const Route&)>;
using TimeFn =
    std::function<Measured(const std::vector<Lane>&, std::uint64_t bytes, const MeasureOptions&)>;

struct Case {
  std::string name;  // stable lower_snake key: filters, JSON, baselines
  std::string what;  // one sentence for --list, naming the GPU that issues the work
  RouteShape shape = RouteShape::kGpu;
  Metric metric = Metric::kBandwidth;  // bandwidth cases run at every size of the sweep
  LanesFn lanes;                       // the transfers one sample runs at once
  WaiveFn waive;                       // nullopt: measure; else the reason it cannot be
  TimeFn time;                         // measures the lanes (GPU)
};

// Every case, in the order of `--list` and of the report.
const std::vector<Case>& all_cases();

// The routes of a shape over the selected GPUs (none for pair shapes with fewer than 2 GPUs).
std::vector<Route> routes_for(RouteShape shape, const std::vector<int>& gpus);

// "<case>/<route>" plus "/<size>" for bandwidth cases: the Google Benchmark name.
std::string benchmark_name(const Case& c, const Route& r, std::optional<std::uint64_t> bytes);

// Waiver used by every case that needs peer access: the reason when a lane's issuer cannot
// map the other GPU's memory.
std::optional<std::string> waive_without_p2p(const BenchContext& ctx,
                                             const std::vector<Lane>& lanes);

}  // namespace p2p::bench
