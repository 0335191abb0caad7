#include "report/run_lines.hpp"

namespace p2p::report {

nlohmann::json jsonl_line(const std::string& kind, const std::string& command,
                          const std::string& host, const std::string& utc, nlohmann::json record) {
  return {{"schema", "p2pcheck.jsonl"},
          {"version", kJsonLinesVersion},
          {"kind", kind},
          {"command", command},
          {"host", host},
          {"utc", utc},
          {"record", std::move(record)}};
}

nlohmann::json run_start_line(const std::string& command, const std::string& host,
                              const std::string& utc, nlohmann::json extra) {
  extra["tool_version"] = P2P_VERSION;
  return jsonl_line("run_start", command, host, utc, std::move(extra));
}

nlohmann::json run_end_line(const std::string& command, const std::string& host,
                            const std::string& utc, int exit_code, nlohmann::json extra) {
  extra["exit_code"] = exit_code;
  return jsonl_line("run_end", command, host, utc, std::move(extra));
}

std::vector<nlohmann::json> doctor_lines(const nlohmann::json& report, const std::string& host,
                                         const std::string& utc) {
  std::vector<nlohmann::json> out;
  for (const auto& f : report.at("findings"))
    out.push_back(jsonl_line("finding", "doctor", host, utc, f));
  out.push_back(jsonl_line("verdict", "doctor", host, utc, report.at("verdict")));
  return out;
}

std::vector<nlohmann::json> gate_lines(const topo::GateDecision& d, const std::string& command,
                                       const std::string& host, const std::string& utc) {
  std::vector<nlohmann::json> out;
  for (const auto& r : d.reasons)
    out.push_back(jsonl_line("gate_reason", command, host, utc, nlohmann::json(r)));
  out.push_back(
      jsonl_line("gate", command, host, utc,
                 {{"passed", d.passed}, {"blocking", d.blocking()}, {"p2p_check", d.p2p_check}}));
  return out;
}

nlohmann::json figure_line(const nlohmann::json& figure, const std::string& host,
                           const std::string& utc) {
  const std::string schema = figure.value("schema", "");
  const std::string kind = schema == "p2pcheck.bench.latency" ? "latency" : "bandwidth";
  return jsonl_line(kind, "bench", host, utc, figure);
}

}  // namespace p2p::report
