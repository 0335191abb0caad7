#include "infer/results.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "nccl/collective.hpp"

namespace p2p::infer {

namespace {

// Nearest rank: the smallest value with at least p of the calls at or below it.
double percentile(const std::vector<double>& sorted, double p) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<std::size_t>(std::ceil(p * n));
  return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

}  // namespace

LatencySummary summarize_latency(std::vector<double> samples_us) {
  if (samples_us.empty()) throw std::invalid_argument("summarize_latency: no samples");
  std::sort(samples_us.begin(), samples_us.end());
  LatencySummary s;
  s.calls = samples_us.size();
  s.min_us = samples_us.front();
  s.max_us = samples_us.back();
  s.p50_us = percentile(samples_us, 0.50);
  s.p90_us = percentile(samples_us, 0.90);
  s.p99_us = percentile(samples_us, 0.99);
  s.mean_us =
      std::accumulate(samples_us.begin(), samples_us.end(), 0.0) / static_cast<double>(s.calls);
  s.spread = s.p50_us > 0 ? s.p99_us / s.p50_us : 0.0;
  return s;
}

MessageResult measured_message(const Message& m, int tp, int calls_per_step,
                               const std::vector<double>& per_call_us) {
  MessageResult r;
  r.message = message_name(m);
  r.phase = m.phase;
  r.tokens = m.tokens;
  r.bytes = m.bytes;
  r.latency = summarize_latency(per_call_us);
  if (r.latency->p50_us > 0) {
    r.busbw_gbps =
        nccl::busbw_gbps(nccl::Collective::kAllReduce, tp, m.bytes, r.latency->p50_us * 1e-6);
  }
  r.step_us = calls_per_step * r.latency->p50_us;
  return r;
}

}  // namespace p2p::infer
