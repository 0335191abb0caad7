// The records of a fleet run's node lines (`p2pcheck node --jsonl`, each host rank of
// `p2pcheck cluster`; results/README.md "node lines"): who the host is, each completed step of
// its chain, and each bench figure as the fleet compares it. Plain data with its JSON; the
// lines around them are report/run_lines.hpp's, read back by cluster/host_lines.hpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "document/bench_document.hpp"
#include "document/outcome.hpp"

namespace p2p::doc {

// kind "host": who ran the chain.
struct NodeHost {
  std::string hostname;
  std::string tool_version;
  std::string source;       // live | fixture
  std::optional<int> rank;  // MPI rank, null outside `cluster`
};

// kind "step": one step of the chain, written when it is complete.
struct StepRecord {
  std::string name;  // doctor | topo | gate | bench (key "step")
  int exit_code = 0;
  std::string summary;  // one line: what the step found
};

enum class FleetFigureKind { kBandwidth, kLatency };
const char* to_string(FleetFigureKind k);  // bandwidth | latency

// A figure as the fleet compares it: bandwidth by its median GB/s, latency by its median ns.
struct FleetFigure {
  FleetFigureKind kind = FleetFigureKind::kBandwidth;
  std::string case_name, src, dst, part;
  std::uint64_t bytes = 0;  // 0 for latency
  FigureStatus status = FigureStatus::kOk;
  std::optional<double> value;
  // "ce_unidir_write gpu0->gpu1 64MiB": the same figure on every host of the fleet (GPUs by
  // position, not bus id, which differ from host to host).
  std::string key() const;
  bool higher_is_better() const { return kind == FleetFigureKind::kBandwidth; }
  const char* unit() const { return higher_is_better() ? "GB/s" : "ns"; }
};

FleetFigure fleet_figure(const BandwidthResult& r);
FleetFigure fleet_figure(const LatencyResult& r);

void to_json(nlohmann::json& j, const NodeHost& h);
void from_json(const nlohmann::json& j, NodeHost& h);
void to_json(nlohmann::json& j, const StepRecord& s);
void from_json(const nlohmann::json& j, StepRecord& s);  // summary may be absent: ""
void to_json(nlohmann::json& j, FleetFigureKind k);
void from_json(const nlohmann::json& j, FleetFigureKind& k);

}  // namespace p2p::doc
