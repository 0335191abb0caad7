#include "cluster/outliers.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/median.hpp"

namespace p2p::cluster {
namespace {

// 0.6745 is the 0.75 quantile of the standard normal: it makes the MAD of normal data
// comparable to a standard deviation.
constexpr double kNormalQuartile = 0.6745;

}  // namespace

double modified_z(double value, double median, double mad, double mad_floor_fraction) {
  const double floor = std::max(std::abs(median) * mad_floor_fraction, 1e-12);
  return kNormalQuartile * (value - median) / std::max(mad, floor);
}

std::vector<FigureSpread> fleet_spreads(const std::vector<HostRun>& hosts,
                                        const OutlierOptions& options) {
  struct Seen {
    FigureSpread spread;
    std::vector<std::pair<std::string, double>> values;  // host, value
  };
  std::vector<Seen> figures;
  std::map<std::string, std::size_t> index;
  for (const auto& h : hosts) {
    for (const auto& f : h.figures) {
      if (f.status != doc::FigureStatus::kOk || !f.value || !std::isfinite(*f.value) ||
          *f.value < 0)
        continue;
      const std::string key = std::string(to_string(f.kind)) + " " + f.key();
      auto [it, inserted] = index.emplace(key, figures.size());
      if (inserted) {
        Seen s;
        s.spread.key = f.key();
        s.spread.figure = f;
        figures.push_back(std::move(s));
      }
      figures[it->second].values.emplace_back(h.name(), *f.value);
    }
  }
  std::vector<FigureSpread> out;
  out.reserve(figures.size());
  for (auto& s : figures) {
    FigureSpread& sp = s.spread;
    sp.hosts = s.values.size();
    std::vector<double> values;
    for (const auto& [host, v] : s.values) values.push_back(v);
    sp.median = median(values);
    std::vector<double> deviations;
    for (double v : values) deviations.push_back(std::abs(v - sp.median));
    sp.mad = median(deviations);
    sp.judged = sp.hosts >= options.min_hosts;
    if (sp.judged) {
      for (const auto& [host, v] : s.values) {
        const double z = modified_z(v, sp.median, sp.mad, options.mad_floor_fraction);
        if (std::abs(z) <= options.z_threshold) continue;
        Deviation d;
        d.host = host;
        d.value = v;
        d.z = z;
        d.delta_pct = sp.median != 0 ? (v - sp.median) / sp.median * 100 : 0;
        d.worse = sp.figure.higher_is_better() ? v < sp.median : v > sp.median;
        sp.outliers.push_back(d);
      }
    }
    out.push_back(std::move(sp));
  }
  return out;
}

}  // namespace p2p::cluster
