#include "bench/measure/collector.hpp"

#include "bench/stats.hpp"

namespace p2p::bench {
namespace {

// failed > error > waived > ok: the worst of the merged records is the figure's.
int severity(doc::FigureStatus status) {
  switch (status) {
    case doc::FigureStatus::kFailed: return 3;
    case doc::FigureStatus::kError: return 2;
    case doc::FigureStatus::kWaived: return 1;
    case doc::FigureStatus::kOk: return 0;
  }
  return 0;
}

template <class R>
bool same_figure(const R& a, const R& b) {
  return a.case_name == b.case_name && a.src == b.src && a.dst == b.dst;
}

void merge_status(doc::FigureStatus& status, std::string& detail, doc::FigureStatus s,
                  const std::string& d) {
  if (severity(s) > severity(status)) {
    status = s;
    detail = d;
  }
}

}  // namespace

void refresh_statistics(doc::BandwidthResult& r) {
  if (r.samples_gbps.empty()) return;
  const SampleStats st = summarize(r.samples_gbps);
  r.median_gbps = st.median;
  r.min_gbps = st.min;
  r.max_gbps = st.max;
  r.spread_pct = st.spread * 100;
  if (r.ceiling_gbps && *r.ceiling_gbps > 0) r.achieved_pct = st.median / *r.ceiling_gbps * 100;
}

void refresh_statistics(doc::LatencyResult& r) {
  if (r.samples_ns.empty()) return;
  const SampleStats st = summarize(r.samples_ns);
  r.median_ns = st.median;
  r.min_ns = st.min;
  r.max_ns = st.max;
  r.spread_pct = st.spread * 100;
}

void Collector::set_listener(FigureListener listener) {
  std::lock_guard<std::mutex> lock(mu_);
  listener_ = std::move(listener);
}

void Collector::add(const doc::BandwidthResult& r) {
  std::lock_guard<std::mutex> lock(mu_);
  const doc::BandwidthResult* added = nullptr;
  for (auto& have : bandwidth_) {
    if (!same_figure(have, r) || have.part != r.part || have.bytes != r.bytes) continue;
    have.samples_gbps.insert(have.samples_gbps.end(), r.samples_gbps.begin(), r.samples_gbps.end());
    have.bad_words += r.bad_words;
    merge_status(have.status, have.detail, r.status, r.detail);
    refresh_statistics(have);
    added = &have;
    break;
  }
  if (added == nullptr) {
    bandwidth_.push_back(r);
    added = &bandwidth_.back();
  }
  if (listener_) listener_(nlohmann::json(*added));
}

void Collector::add(const doc::LatencyResult& r) {
  std::lock_guard<std::mutex> lock(mu_);
  const doc::LatencyResult* added = nullptr;
  for (auto& have : latency_) {
    if (!same_figure(have, r)) continue;
    have.samples_ns.insert(have.samples_ns.end(), r.samples_ns.begin(), r.samples_ns.end());
    merge_status(have.status, have.detail, r.status, r.detail);
    refresh_statistics(have);
    added = &have;
    break;
  }
  if (added == nullptr) {
    latency_.push_back(r);
    added = &latency_.back();
  }
  if (listener_) listener_(nlohmann::json(*added));
}

void Collector::warn(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  if (seen_warnings_.insert(text).second) warnings_.push_back(text);
}

std::vector<doc::BandwidthResult> Collector::bandwidth() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bandwidth_;
}

std::vector<doc::LatencyResult> Collector::latency() const {
  std::lock_guard<std::mutex> lock(mu_);
  return latency_;
}

std::vector<std::string> Collector::warnings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return warnings_;
}

}  // namespace p2p::bench
