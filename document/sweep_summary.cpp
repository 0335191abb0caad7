#include "document/sweep_summary.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace p2p::doc {

std::optional<std::uint64_t> smallest_size_reaching(const std::vector<SweepPoint>& points,
                                                    double fraction) {
  if (points.empty()) return std::nullopt;
  double peak = 0;
  for (const auto& p : points) peak = std::max(peak, p.gbps);
  std::optional<std::uint64_t> best;
  for (const auto& p : points) {
    if (p.gbps >= fraction * peak && (!best || p.bytes < *best)) best = p.bytes;
  }
  return best;
}

std::vector<doc::SweepSummary> summarize_sweeps(const std::vector<doc::BandwidthResult>& records) {
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::vector<Key> order;
  std::map<Key, std::vector<SweepPoint>> points;
  for (const auto& r : records) {
    if (r.status != doc::FigureStatus::kOk || !r.median_gbps) continue;
    const Key k{r.case_name, r.src, r.dst, r.part};
    auto [it, inserted] = points.try_emplace(k);
    if (inserted) order.push_back(k);
    it->second.push_back({r.bytes, *r.median_gbps});
  }
  std::vector<doc::SweepSummary> out;
  for (const Key& k : order) {
    const auto& ps = points[k];
    if (ps.size() < 2) continue;
    doc::SweepSummary s;
    std::tie(s.case_name, s.src, s.dst, s.part) = k;
    const auto peak =
        std::max_element(ps.begin(), ps.end(),
                         [](const SweepPoint& a, const SweepPoint& b) { return a.gbps < b.gbps; });
    s.peak_gbps = peak->gbps;
    s.peak_bytes = peak->bytes;
    s.bytes_at_90pct = smallest_size_reaching(ps, 0.9);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace p2p::doc
