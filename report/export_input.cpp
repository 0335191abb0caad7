#include "report/export_input.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "report/prometheus_metrics.hpp"

namespace p2p::report {

ExportInput read_export_input(const nlohmann::json& j, const std::string& source,
                              const std::string& hostname, bool hostname_override) {
  ExportInput in;
  in.source = source;
  in.hostname = hostname;
  const std::string schema = j.is_object() && j.contains("schema") && j.at("schema").is_string()
                                 ? j.at("schema").get<std::string>()
                                 : std::string();
  if (schema == doc::BenchDocument::kSchema) {
    in.kind = ExportInput::Kind::kResults;
    in.results = doc::bench_document_from_json(j, source);
    if (hostname_override || in.results.hostname.empty()) in.results.hostname = hostname;
    in.hostname = in.results.hostname;
  } else if (schema == "p2pcheck.gate") {
    in.kind = ExportInput::Kind::kGate;
    try {
      in.gate = j.get<topo::GateDecision>();
    } catch (const InputError& e) {
      throw InputError(source + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
      throw InputError(source + ": " + json_error_tail(e.what()));
    }
  } else if (schema == "p2pcheck.doctor.report") {
    in.kind = ExportInput::Kind::kDoctor;
    in.doctor = j;
    (void)doctor_suite(j, hostname,
                       source);  // checks the report now, so errors come before any output
  } else {
    throw InputError(
        source + ": " + (schema.empty() ? std::string("no `schema`") : "schema `" + schema + "`") +
        ": expected a results document (p2pcheck.bench.run), a gate decision (p2pcheck.gate) or a "
        "doctor report (p2pcheck.doctor.report)");
  }
  return in;
}

std::vector<CheckSuite> export_suites(const ExportInput& in) {
  std::vector<CheckSuite> s;
  switch (in.kind) {
    case ExportInput::Kind::kResults: s = document_suites(in.results, in.source); break;
    case ExportInput::Kind::kGate: s.push_back(gate_suite(in.gate, in.hostname, "")); break;
    case ExportInput::Kind::kDoctor:
      s.push_back(doctor_suite(in.doctor, in.hostname, in.source));
      break;
  }
  make_case_names_unique(s);
  return s;
}

std::string export_prometheus(const ExportInput& in, double now_unix) {
  Exposition e;
  switch (in.kind) {
    case ExportInput::Kind::kResults: add_document_metrics(e, in.results); break;
    case ExportInput::Kind::kGate:
      add_gate_metrics(e, in.gate, in.hostname);
      add_last_run(e, in.hostname, "gate", now_unix);
      break;
    case ExportInput::Kind::kDoctor:
      add_doctor_metrics(e, in.doctor, in.hostname, in.source);
      add_last_run(e, in.hostname, "doctor", now_unix);
      break;
  }
  return e.render();
}

}  // namespace p2p::report
