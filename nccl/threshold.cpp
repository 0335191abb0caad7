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

BusbwVerdict judge_series(const std::vector<BusbwPoint>& points, double min_busbw_gbps,
                          double bus_factor, std::optional<std::uint64_t> saturation_override) {
  BusbwVerdict v;
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
  v.status = *v.median_busbw_gbps >= min_busbw_gbps ? "pass" : "fail";
  return v;
}

std::vector<BusbwVerdict> judge_min_busbw(const std::vector<CollectiveResult>& results,
                                          double min_busbw_gbps,
                                          std::optional<std::uint64_t> saturation_override) {
  using Key = std::tuple<std::string, std::string, bool, int, int>;
  std::map<Key, std::vector<BusbwPoint>> series;
  std::map<Key, const CollectiveResult*> first;
  for (const auto& r : results) {
    const Key key{r.collective, r.dtype, r.in_place, r.src_rank.value_or(-1),
                  r.dst_rank.value_or(-1)};
    first.emplace(key, &r);
    auto& points = series[key];
    if (r.status == "ok" && r.busbw_gbps) points.push_back({r.size_bytes, *r.busbw_gbps});
  }
  std::vector<BusbwVerdict> verdicts;
  for (const auto& [key, points] : series) {
    const CollectiveResult& r = *first.at(key);
    const double factor = bus_factor(parse_collective(r.collective), r.nranks);
    BusbwVerdict v = judge_series(points, min_busbw_gbps, factor, saturation_override);
    v.collective = r.collective;
    v.dtype = r.dtype;
    v.in_place = r.in_place;
    v.src_rank = r.src_rank;
    v.dst_rank = r.dst_rank;
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

bool any_failed(const std::vector<BusbwVerdict>& verdicts) {
  return std::any_of(verdicts.begin(), verdicts.end(),
                     [](const BusbwVerdict& v) { return v.status == "fail"; });
}

void to_json(nlohmann::json& j, const BusbwVerdict& v) {
  j = {{"schema", "p2pcheck.nccl_busbw_verdict"},
       {"version", BusbwVerdict::kVersion},
       {"collective", v.collective},
       {"dtype", v.dtype},
       {"in_place", v.in_place},
       {"src_rank", optional_json(v.src_rank)},
       {"dst_rank", optional_json(v.dst_rank)},
       {"saturation_bytes", optional_json(v.saturation_bytes)},
       {"judged_sizes", v.judged_sizes},
       {"median_busbw_gbps", optional_json(v.median_busbw_gbps)},
       {"lowest_busbw_gbps", optional_json(v.lowest_busbw_gbps)},
       {"min_busbw_gbps", v.min_busbw_gbps},
       {"status", v.status},
       {"detail", v.detail}};
}

void from_json(const nlohmann::json& j, BusbwVerdict& v) {
  require_schema(j, "p2pcheck.nccl_busbw_verdict", BusbwVerdict::kVersion);
  v.collective = j.at("collective").get<std::string>();
  v.dtype = j.at("dtype").get<std::string>();
  v.in_place = j.at("in_place").get<bool>();
  v.src_rank = optional_integer_at(j, "src_rank", 0, kMaxRanks - 1);
  v.dst_rank = optional_integer_at(j, "dst_rank", 0, kMaxRanks - 1);
  v.saturation_bytes =
      optional_integer_at<std::uint64_t>(j, "saturation_bytes", 1, kMaxDocumentBytes);
  v.judged_sizes = integer_at(j, "judged_sizes", 0, kMaxCount);
  v.median_busbw_gbps = optional_from<double>(j, "median_busbw_gbps");
  v.lowest_busbw_gbps = optional_from<double>(j, "lowest_busbw_gbps");
  v.min_busbw_gbps = j.at("min_busbw_gbps").get<double>();
  v.status = j.at("status").get<std::string>();
  v.detail = j.at("detail").get<std::string>();
}

}  // namespace p2p::nccl
