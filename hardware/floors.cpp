#include "hardware/floors.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

namespace p2p::hw {
namespace {

bool is_latency(const std::string& metric) { return metric.find("latency") != std::string::npos; }

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

DerivedFloor apply_rule(DerivedFloor f) {
  f.higher_is_better = !is_latency(f.metric);
  if (f.higher_is_better) {
    f.warn = f.low * kBandwidthWarnFraction;
    f.fail = f.low * kBandwidthFailFraction;
    f.rule = "warn below " + number(kBandwidthWarnFraction) +
             "x the published low end, fail below " + number(kBandwidthFailFraction) + "x it";
  } else {
    f.warn = f.high * kLatencyWarnFactor;
    f.fail = f.high * kLatencyFailFactor;
    f.rule = "warn above " + number(kLatencyWarnFactor) + "x the published high end, fail above " +
             number(kLatencyFailFactor) + "x it";
  }
  return f;
}

// The published ranges of one model merged per (metric, path, GPU count): widest range.
std::vector<DerivedFloor> merged(const KnowledgeBase& kb, const GpuModel& model, bool staged) {
  using Key = std::tuple<std::string, std::string, int>;
  std::map<Key, DerivedFloor> by_key;
  std::vector<Key> order;
  for (const auto* r : kb.figures_of(model.key)) {
    if ((r->metric.rfind("staged_", 0) == 0) != staged) continue;
    const Key k{r->metric, r->path, r->gpus.value_or(0)};
    auto it = by_key.find(k);
    if (it == by_key.end()) {
      DerivedFloor f;
      f.metric = r->metric;
      f.path = r->path;
      f.gpus = r->gpus;
      f.low = r->low;
      f.high = r->high;
      f.unit = r->unit;
      it = by_key.emplace(k, f).first;
      order.push_back(k);
    }
    it->second.low = std::min(it->second.low, r->low);
    it->second.high = std::max(it->second.high, r->high);
    if (std::find(it->second.sources.begin(), it->second.sources.end(), r->source) ==
        it->second.sources.end())
      it->second.sources.push_back(r->source);
  }
  std::vector<DerivedFloor> out;
  for (const auto& k : order) out.push_back(by_key.at(k));
  return out;
}

}  // namespace

std::vector<DerivedFloor> derived_floors(const KnowledgeBase& kb, const GpuModel& model) {
  std::vector<DerivedFloor> out;
  for (auto& f : merged(kb, model, false)) out.push_back(apply_rule(std::move(f)));
  return out;
}

std::optional<FloorChoice> floor_for(const KnowledgeBase& kb, const GpuModel& model,
                                     const std::string& metric, const std::string& path,
                                     std::optional<int> gpus) {
  std::vector<DerivedFloor> fits;
  for (auto& f : derived_floors(kb, model))
    if (f.metric == metric && (!gpus || f.gpus == gpus)) fits.push_back(std::move(f));
  if (fits.empty()) return std::nullopt;
  for (const auto& f : fits)
    if (f.path == path || f.path == "any")
      return FloorChoice{
          f, "published for " + (f.path == "any" ? std::string("any path") : f.path + " pairs")};
  // Not placed, or no figure for its class: the most lenient, so that a guess never fails a
  // healthy pair of a slower class.
  const auto lenient = std::min_element(fits.begin(), fits.end(), [](const auto& a, const auto& b) {
    return a.higher_is_better ? a.fail < b.fail : a.fail > b.fail;
  });
  return FloorChoice{*lenient, "the most lenient of its path classes (" + lenient->path + ")" +
                                   (path.empty() ? ": the pair's path is not known" : "")};
}

std::optional<DerivedFloor> staged_reference(const KnowledgeBase& kb, const GpuModel& model,
                                             const std::string& metric) {
  for (auto& f : merged(kb, model, true))
    if (f.metric == metric) return f;
  return std::nullopt;
}

}  // namespace p2p::hw
