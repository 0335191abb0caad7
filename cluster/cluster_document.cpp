#include "cluster/cluster_document.hpp"

#include "common/json_util.hpp"

namespace p2p::cluster {
namespace {

nlohmann::json host_json(const HostVerdict& v) {
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
          {"notes", v.notes}};
}

nlohmann::json figure_json(const FigureSpread& s) {
  nlohmann::json outliers = nlohmann::json::array();
  for (const auto& d : s.outliers) {
    outliers.push_back({{"host", d.host},
                        {"value", d.value},
                        {"z", d.z},
                        {"delta_pct", d.delta_pct},
                        {"worse", d.worse}});
  }
  const Figure& f = s.figure;
  return {{"kind", f.kind},
          {"case", f.case_name},
          {"src", f.src},
          {"dst", f.dst},
          {"part", f.part},
          {"bytes", f.kind == "bandwidth" ? nlohmann::json(f.bytes) : nlohmann::json(nullptr)},
          {"unit", f.unit()},
          {"hosts", s.hosts},
          {"median", s.median},
          {"mad", s.mad},
          {"judged", s.judged},
          {"outliers", outliers}};
}

}  // namespace

nlohmann::json cluster_document(const ClusterRun& run, const OutlierOptions& rule,
                                const DocumentInfo& info) {
  nlohmann::json j;
  write_schema_header(j, ClusterRun::kSchema, ClusterRun::kVersion);
  j["written_by"] = info.written_by;
  j["tool_version"] = info.tool_version;
  j["created_utc"] = info.created_utc;
  j["ranks"] = info.ranks;
  j["passed"] = run.passed;
  j["exit_code"] = run.exit_code();
  j["gate"] = {{"passed", run.gate_passed},
               {"topology_reference", run.topology_reference},
               {"reasons", run.gate_reasons}};
  j["outlier_rule"] = {{"statistic", "modified_z"},
                       {"threshold", rule.z_threshold},
                       {"mad_floor_fraction", rule.mad_floor_fraction},
                       {"min_hosts", rule.min_hosts}};
  nlohmann::json hosts = nlohmann::json::array();
  for (const auto& v : run.hosts) hosts.push_back(host_json(v));
  j["hosts"] = hosts;
  nlohmann::json figures = nlohmann::json::array();
  for (const auto& s : run.figures) figures.push_back(figure_json(s));
  j["figures"] = figures;
  j["nccl"] = nullptr;  // filled by the multi-host NCCL runs when they are part of the chain
  return j;
}

}  // namespace p2p::cluster
