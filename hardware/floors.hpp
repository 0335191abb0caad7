// The default floors p2pcheck derives from the published figures of a model: what a healthy
// host of that model must reach. Each floor names the rule that derived it and the figures it
// came from, so a verdict can say why a number was expected. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hardware/knowledge_base.hpp"

namespace p2p::hw {

// The rules, in words a reason can quote. Bandwidth: the clouds' convention (Azure NHC fails
// below 0.87-0.92 x the typical figure and warns within 5 % of its floor; DCGM sets 0.75 x;
// docs/acceptance.md), against the low end of the published range, which already holds the
// healthy spread: a host some 8 % under it warns, 15 % under fails, and one a link step down
// (0.5 x) fails far below. Latency: peer latencies are a few hundred ns to about 2 us where P2P
// is in effect and 10-20 us staged, so four times the published high end fails without
// mistaking a slow socket for a staged path.
constexpr double kBandwidthWarnFraction = 0.92;
constexpr double kBandwidthFailFraction = 0.85;
constexpr double kLatencyWarnFactor = 2.0;
constexpr double kLatencyFailFactor = 4.0;

struct DerivedFloor {
  std::string metric;       // as ReferenceFigure::metric
  std::string path;         // PIX ... SYS, NV, any
  std::optional<int> gpus;  // allreduce_busbw
  bool higher_is_better = true;
  double warn = 0;  // GB/s below which (or us above which) a figure warns
  double fail = 0;  // ... fails
  double low = 0;   // the published range the floor came from (widest over its sources)
  double high = 0;
  std::string unit;
  std::string rule;  // "warn below 0.92x the published low end, fail below 0.85x it"
  std::vector<std::string> sources;  // every figure's source, in file order
};

// One floor per (metric, path, GPU count) the model has figures for, staged figures excepted
// (they describe the path P2P avoids, not a floor): the published ranges merged, then the rule.
std::vector<DerivedFloor> derived_floors(const KnowledgeBase& kb, const GpuModel& model);

// The floor for a figure on a path class ("NODE"; "" where the document does not place the
// pair): that class's own where the model has one, else the most lenient of the metric's
// floors (basis_note says which). nullopt where the model has no figure for the metric.
struct FloorChoice {
  DerivedFloor floor;
  std::string basis_note;  // "published for NODE pairs" or "the most lenient of its path classes"
};
std::optional<FloorChoice> floor_for(const KnowledgeBase& kb, const GpuModel& model,
                                     const std::string& metric, const std::string& path,
                                     std::optional<int> gpus = std::nullopt);

// The published range of a staged (P2P off) figure of the model, for telling P2P in effect from
// a staged path: nullopt without one.
std::optional<DerivedFloor> staged_reference(const KnowledgeBase& kb, const GpuModel& model,
                                             const std::string& metric);

}  // namespace p2p::hw
