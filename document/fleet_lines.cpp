#include "document/fleet_lines.hpp"

#include "common/byte_size.hpp"
#include "common/json_util.hpp"
#include "document/enum_names.hpp"

namespace p2p::doc {
namespace {

using nlohmann::json;

constexpr EnumNames<FleetFigureKind, 2> kFigureKinds{
    {{FleetFigureKind::kBandwidth, "bandwidth"}, {FleetFigureKind::kLatency, "latency"}}};

}  // namespace

const char* to_string(FleetFigureKind k) { return name_in(kFigureKinds, k); }

std::string FleetFigure::key() const {
  std::string k = case_name + " " + src + "->" + dst;
  if (!part.empty()) k += " " + part;
  if (bytes > 0) k += " " + format_bytes(bytes, ByteStyle::kCompact);
  return k;
}

FleetFigure fleet_figure(const BandwidthResult& r) {
  FleetFigure f;
  f.kind = FleetFigureKind::kBandwidth;
  f.case_name = r.case_name;
  f.src = r.src;
  f.dst = r.dst;
  f.part = r.part;
  f.bytes = r.bytes;
  f.status = r.status;
  f.value = r.median_gbps;
  return f;
}

FleetFigure fleet_figure(const LatencyResult& r) {
  FleetFigure f;
  f.kind = FleetFigureKind::kLatency;
  f.case_name = r.case_name;
  f.src = r.src;
  f.dst = r.dst;
  f.status = r.status;
  f.value = r.median_ns;
  return f;
}

void to_json(json& j, const NodeHost& h) {
  j = {{"hostname", h.hostname},
       {"tool_version", h.tool_version},
       {"source", h.source},
       {"rank", optional_json(h.rank)}};
}
void from_json(const json& j, NodeHost& h) {
  h.hostname = j.at("hostname").get<std::string>();
  h.tool_version = j.at("tool_version").get<std::string>();
  h.source = j.at("source").get<std::string>();
  h.rank = optional_at<int>(j, "rank");
}

void to_json(json& j, const StepRecord& s) {
  j = {{"step", s.name}, {"exit_code", s.exit_code}, {"summary", s.summary}};
}
void from_json(const json& j, StepRecord& s) {
  s.name = j.at("step").get<std::string>();
  s.exit_code = integer_at<int>(j, "exit_code", 0, 255);
  s.summary = j.value("summary", "");
}

void to_json(json& j, FleetFigureKind k) { j = to_string(k); }
void from_json(const json& j, FleetFigureKind& k) { k = parse_json_in(kFigureKinds, j, "kind"); }

}  // namespace p2p::doc
