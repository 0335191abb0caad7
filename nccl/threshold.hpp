// `--min-busbw`: judged on each series' saturated sizes only. A mean over a whole sweep is
// dragged down by tiny messages that no link can fill and gives false failures; the median
// over the plateau ignores both the ramp and a single slow sample. Pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/nccl_section.hpp"

namespace p2p::nccl {

using doc::BusbwVerdict;
using doc::CollectiveResult;

// A series reaches saturation at the first size whose busbw is at least this share of its peak.
constexpr double kSaturationFraction = 0.9;

struct BusbwPoint {
  std::uint64_t size_bytes = 0;
  double busbw_gbps = 0.0;
};

// Smallest size whose busbw reaches kSaturationFraction of the series' peak; nullopt for an
// empty series or one with no positive bandwidth.
std::optional<std::uint64_t> saturation_size(const std::vector<BusbwPoint>& points);

// One series: `bus_factor` 0 (one rank) means no data crosses a bus: not judged. A fixed
// `saturation_override` replaces the computed saturation size.
doc::BusbwVerdict judge_series(const std::vector<BusbwPoint>& points, double min_busbw_gbps,
                               double bus_factor, std::optional<std::uint64_t> saturation_override);

// Every series of a run (collective x dtype x placement [x pair]); only "ok" results count.
std::vector<doc::BusbwVerdict> judge_min_busbw(const std::vector<doc::CollectiveResult>& results,
                                               double min_busbw_gbps,
                                               std::optional<std::uint64_t> saturation_override);

bool any_failed(const std::vector<doc::BusbwVerdict>& verdicts);

}  // namespace p2p::nccl
