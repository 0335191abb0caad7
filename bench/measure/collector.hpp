// Where the registered benchmarks leave their records. Google Benchmark may run one benchmark
// several times (--benchmark_repetitions); the samples of a repeated figure are merged into
// one record rather than listed twice.
#pragma once

#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "document/bench_document.hpp"

namespace p2p::bench {

// Called with each figure as it is added (the merged record when a figure repeats), in the
// order figures finish, while the collector's lock is held: `bench --jsonl` streams them.
using FigureListener = std::function<void(const nlohmann::json& figure)>;

class Collector {
 public:
  void set_listener(FigureListener listener);
  void add(const doc::BandwidthResult& r);
  void add(const doc::LatencyResult& r);
  void warn(const std::string& text);  // each distinct warning once

  std::vector<doc::BandwidthResult> bandwidth() const;
  std::vector<doc::LatencyResult> latency() const;
  std::vector<std::string> warnings() const;

 private:
  mutable std::mutex mu_;
  std::vector<doc::BandwidthResult> bandwidth_;
  std::vector<doc::LatencyResult> latency_;
  std::vector<std::string> warnings_;
  std::set<std::string> seen_warnings_;
  FigureListener listener_;
};

// Recomputes median/min/max/spread/achieved from samples_gbps (after a merge).
void refresh_statistics(doc::BandwidthResult& r);
void refresh_statistics(doc::LatencyResult& r);

}  // namespace p2p::bench
