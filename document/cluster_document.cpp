#include "document/cluster_document.hpp"

#include "common/error.hpp"
#include "common/json_util.hpp"

namespace p2p::doc {
namespace {

using nlohmann::json;

json host_json(const HostVerdict& v) {
  return {{"host", v.host},
          {"source", v.source},
          {"status", v.status},
          {"last_step", v.last_step},
          {"exit_code", optional_json(v.exit_code)},
          {"gate_passed", optional_json(v.gate_passed)},
          {"doctor_state", v.doctor_state},
          {"root_cause", v.root_cause},
          {"topology", {{"match", v.topology.match}, {"differences", v.topology.differences}}},
          {"figures_ok", v.figures_ok},
          {"figures_lost", v.figures_lost},
          {"outliers_worse", v.outliers_worse},
          {"reasons", v.reasons},
          {"notes", v.notes},
          {"caveats", v.caveats}};
}

HostVerdict host_from(const json& j) {
  HostVerdict v;
  v.host = j.at("host").get<std::string>();
  v.source = j.at("source").get<std::string>();
  v.status = j.at("status").get<HostStatus>();
  v.last_step = j.at("last_step").get<std::string>();
  v.exit_code = optional_at<int>(j, "exit_code");
  v.gate_passed = optional_at<bool>(j, "gate_passed");
  v.doctor_state = j.at("doctor_state").get<std::string>();
  v.root_cause = j.at("root_cause").get<std::string>();
  v.topology.match = j.at("topology").at("match").get<TopologyMatch>();
  v.topology.differences = j.at("topology").at("differences").get<std::vector<std::string>>();
  v.figures_ok = value_at<std::size_t>(j, "figures_ok");
  v.figures_lost = value_at<std::size_t>(j, "figures_lost");
  v.outliers_worse = value_at<std::size_t>(j, "outliers_worse");
  v.reasons = j.at("reasons").get<std::vector<std::string>>();
  v.notes = j.at("notes").get<std::vector<std::string>>();
  if (const auto it = j.find("caveats"); it != j.end() && !it->is_null())  // absent before
    v.caveats = it->get<std::vector<Caveat>>();
  return v;
}

json figure_json(const FigureSpread& s) {
  json outliers = json::array();
  for (const auto& d : s.outliers) {
    outliers.push_back({{"host", d.host},
                        {"value", d.value},
                        {"z", d.z},
                        {"delta_pct", d.delta_pct},
                        {"worse", d.worse}});
  }
  const FleetFigure& f = s.figure;
  return {{"kind", f.kind},     {"case", f.case_name},
          {"src", f.src},       {"dst", f.dst},
          {"part", f.part},     {"bytes", f.higher_is_better() ? json(f.bytes) : json(nullptr)},
          {"unit", f.unit()},   {"hosts", s.hosts},
          {"median", s.median}, {"mad", s.mad},
          {"judged", s.judged}, {"outliers", outliers}};
}

FigureSpread figure_from(const json& j) {
  FigureSpread s;
  FleetFigure& f = s.figure;
  f.kind = j.at("kind").get<FleetFigureKind>();
  f.case_name = j.at("case").get<std::string>();
  f.src = j.at("src").get<std::string>();
  f.dst = j.at("dst").get<std::string>();
  f.part = j.at("part").get<std::string>();
  f.bytes = optional_at<std::uint64_t>(j, "bytes").value_or(0);
  s.key = f.key();
  s.hosts = value_at<std::size_t>(j, "hosts");
  s.median = j.at("median").get<double>();
  s.mad = j.at("mad").get<double>();
  s.judged = j.at("judged").get<bool>();
  for (const auto& o : j.at("outliers")) {
    s.outliers.push_back(Deviation{o.at("host").get<std::string>(), o.at("value").get<double>(),
                                   o.at("z").get<double>(), o.at("delta_pct").get<double>(),
                                   o.at("worse").get<bool>()});
  }
  return s;
}

int checked_cluster_version(const json& j) {
  const int version = value_at<int>(j, "version");
  if (j.at("schema").get<std::string>() != ClusterDocument::kSchema)
    throw InputError(std::string("`schema`: expected ") + ClusterDocument::kSchema);
  if (version < ClusterDocument::kOldestReadableVersion || version > ClusterDocument::kVersion)
    throw InputError(std::string(ClusterDocument::kSchema) + " version " + std::to_string(version) +
                     " is not supported (this p2pcheck reads versions " +
                     std::to_string(ClusterDocument::kOldestReadableVersion) + " to " +
                     std::to_string(ClusterDocument::kVersion) + ")");
  return version;
}

}  // namespace

void to_json(json& j, const ClusterDocument& d) {
  const ClusterRun& run = d.run;
  j = json::object();
  write_schema_header(j, ClusterDocument::kSchema, ClusterDocument::kVersion);
  j["written_by"] = d.written_by;
  j["tool_version"] = d.tool_version;
  j["created_utc"] = d.created_utc;
  j["ranks"] = d.ranks;
  j["passed"] = run.passed;
  j["exit_code"] = run.exit_code();
  j["gate"] = {{"passed", run.gate_passed},
               {"topology_reference", run.topology_reference},
               {"reasons", run.gate_reasons}};
  j["outlier_rule"] = {{"statistic", "modified_z"},
                       {"threshold", d.outlier_rule.z_threshold},
                       {"mad_floor_fraction", d.outlier_rule.mad_floor_fraction},
                       {"min_hosts", d.outlier_rule.min_hosts}};
  j["hosts"] = json::array();
  for (const auto& v : run.hosts) j["hosts"].push_back(host_json(v));
  j["figures"] = json::array();
  for (const auto& s : run.figures) j["figures"].push_back(figure_json(s));
  j["verdict"] = run.verdict;
  j["nccl"] = nullptr;  // filled by the multi-host NCCL runs when they are part of the chain
}

void from_json(const json& j, ClusterDocument& d) {
  try {
    const int version = checked_cluster_version(j);
    d = ClusterDocument{};
    d.written_by = j.at("written_by").get<std::string>();
    d.tool_version = j.at("tool_version").get<std::string>();
    d.created_utc = j.at("created_utc").get<std::string>();
    d.ranks = value_at<int>(j, "ranks");
    const json& rule = j.at("outlier_rule");
    d.outlier_rule =
        OutlierRule{rule.at("threshold").get<double>(), rule.at("mad_floor_fraction").get<double>(),
                    value_at<std::size_t>(rule, "min_hosts")};
    ClusterRun& run = d.run;
    run.passed = j.at("passed").get<bool>();
    run.gate_passed = j.at("gate").at("passed").get<bool>();
    run.topology_reference = j.at("gate").at("topology_reference").get<std::string>();
    run.gate_reasons = j.at("gate").at("reasons").get<std::vector<std::string>>();
    for (const auto& h : j.at("hosts")) run.hosts.push_back(host_from(h));
    for (const auto& f : j.at("figures")) run.figures.push_back(figure_from(f));
    d.has_verdict = version >= 2;
    if (d.has_verdict) run.verdict = j.at("verdict").get<RunVerdict>();
  } catch (const json::exception& e) {
    throw InputError(std::string(ClusterDocument::kSchema) + " document: " + e.what());
  }
}

}  // namespace p2p::doc
