#include "nccl/threshold.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "common/byte_size.hpp"
#include "common/median.hpp"
#include "nccl/collective.hpp"
#include "nccl/json_util.hpp"

namespace p2p::nccl {

std::optional<std::uint64_t> saturation_size(const std::vector<BusbwPoint>& points) {
  double peak = 0.0;
  for (const auto& p : points) peak = std::max(peak, p.busbw_gbps);
  if (peak <= 0.0) return std::nullopt;
  std::optional<std::uint64_t> smallest;
  for (const auto& p : points) {
    if (p.busbw_gbps >= kSaturationFraction * peak && (!smallest || p.size_bytes < *smallest))
      smallest = p.size_bytes;
  }
  return smallest;
}

doc::BusbwVerdict judge_series(const std::vector<BusbwPoint>& points, double min_busbw_gbps,
                               double bus_factor,
                               std::optional<std::uint64_t> saturation_override) {
  doc::BusbwVerdict v;
  v.min_busbw_gbps = min_busbw_gbps;
  if (bus_factor <= 0.0) {
    v.detail = "one rank: no data crosses a bus (bus factor 0)";
    return v;
  }
  if (points.empty()) {
    v.detail = "no successful measurement";
    return v;
  }
  v.saturation_bytes = saturation_override ? saturation_override : saturation_size(points);
  if (!v.saturation_bytes) {
    // No positive bandwidth anywhere: judge every size so that a dead link fails.
    v.saturation_bytes =
        std::min_element(points.begin(), points.end(), [](const auto& a, const auto& b) {
          return a.size_bytes < b.size_bytes;
        })->size_bytes;
  }
  std::vector<double> judged;
  for (const auto& p : points) {
    if (p.size_bytes >= *v.saturation_bytes) judged.push_back(p.busbw_gbps);
  }
  v.judged_sizes = static_cast<int>(judged.size());
  if (judged.empty()) {
    v.detail = "no size at or above the saturation size " +
               format_bytes(*v.saturation_bytes, ByteStyle::kSpaced);
    return v;
  }
  v.median_busbw_gbps = median(judged);
  v.lowest_busbw_gbps = *std::min_element(judged.begin(), judged.end());
  v.status = *v.median_busbw_gbps >= min_busbw_gbps ? doc::ThresholdStatus::kPass
                                                    : doc::ThresholdStatus::kFail;
  return v;
}

std::vector<doc::BusbwVerdict> judge_min_busbw(const std::vector<doc::CollectiveResult>& results,
                                               double min_busbw_gbps,
                                               std::optional<std::uint64_t> saturation_override) {
  using Key = std::tuple<std::string, std::string, bool, int, int>;
  std::map<Key, std::vector<BusbwPoint>> series;
  std::map<Key, const doc::CollectiveResult*> first;
  for (const auto& r : results) {
    const Key key{r.collective, r.dtype, r.in_place, r.src_rank.value_or(-1),
                  r.dst_rank.value_or(-1)};
    first.emplace(key, &r);
    auto& points = series[key];
    if (r.status == doc::CollectiveStatus::kOk && r.busbw_gbps)
      points.push_back({r.size_bytes, *r.busbw_gbps});
  }
  std::vector<doc::BusbwVerdict> verdicts;
  for (const auto& [key, points] : series) {
    const doc::CollectiveResult& r = *first.at(key);
    const double factor = bus_factor(parse_collective(r.collective), r.nranks);
    doc::BusbwVerdict v = judge_series(points, min_busbw_gbps, factor, saturation_override);
    v.collective = r.collective;
    v.dtype = r.dtype;
    v.in_place = r.in_place;
    v.src_rank = r.src_rank;
    v.dst_rank = r.dst_rank;
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

bool any_failed(const std::vector<doc::BusbwVerdict>& verdicts) {
  return std::any_of(verdicts.begin(), verdicts.end(), [](const doc::BusbwVerdict& v) {
    return v.status == doc::ThresholdStatus::kFail;
  });
}

}  // namespace p2p::nccl
