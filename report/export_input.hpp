// What `p2pcheck export` reads: a results document (bench or nccl --json), a gate decision
// (gate --format json) or a doctor report (doctor --format json), told apart by their schema,
// and what each becomes as JUnit cases and as Prometheus metrics.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "report/check_cases.hpp"
#include "topology/gate.hpp"

namespace p2p::report {

struct ExportInput {
  enum class Kind { kResults, kGate, kDoctor } kind = Kind::kResults;
  std::string source;    // the file name, for errors
  std::string hostname;  // the results document's own; for gate and doctor, the caller's
  doc::BenchDocument results;
  topo::GateDecision gate;
  nlohmann::json doctor;
};

// InputError "<source>: ..." for anything else, naming the schemas it reads. `hostname` names
// the host of gate and doctor output (they do not record it); a results document keeps its own
// unless `hostname_override` is set.
ExportInput read_export_input(const nlohmann::json& j, const std::string& source,
                              const std::string& hostname, bool hostname_override);

std::vector<CheckSuite> export_suites(const ExportInput& in);

// The .prom text. `now_unix` stands for the run time of gate and doctor output, which carry none.
std::string export_prometheus(const ExportInput& in, double now_unix);

}  // namespace p2p::report
