// Every judged item of a run as a test case, the shape CI systems read (JUnit): one case per
// doctor check, gate reason, verified figure, NCCL result, busbw threshold and compare verdict,
// named "<host>/<check or case>/<pair>/<size>" (empty parts left out). Pure functions of the
// documents, so the same cases come from a live command and from a document read later.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "document/outcome.hpp"
#include "report/compare.hpp"
#include "topology/gate.hpp"

namespace p2p::report {

struct CheckCase {
  std::string name;       // "vm/h2d_ce/host->gpu0/1GiB"; unique within a report
  std::string classname;  // "p2pcheck.bench.h2d_ce": how CI systems group cases
  // pass and warn pass, fail fails, error errs, skipped and not meaningful are skipped.
  doc::Outcome outcome = doc::Outcome::kPass;
  std::string message;  // one line: the cause of a failure, the reason for a skip, else the figure
  std::optional<double> time_s;  // measured time, where the document has it
};

struct CheckSuite {
  std::string name;  // doctor | gate | bench | nccl | acceptance | compare
  std::string hostname;
  std::string timestamp;  // ISO 8601 UTC as the document records it; "" when unknown
  std::vector<CheckCase> cases;
  // <properties> of the suite: the run's verdict and caveats ("p2pcheck.caveat.shared"), so a
  // CI page shows what was true of the whole run beside its cases.
  std::vector<std::pair<std::string, std::string>> properties;
};

// The gate's reasons: block fails, pass passes, pending and notes are skipped with the text.
CheckSuite gate_suite(const topo::GateDecision& d, const std::string& hostname,
                      const std::string& timestamp);

// A results document: its gate (when it ran), then bench figures (waived: skipped; failed
// verification: failure with the count; error: error) or the NCCL section (results, rank
// processes, --min-busbw verdicts, and the P2P-off sweep). InputError "<source>: ..." for a
// malformed gate or NCCL section.
std::vector<CheckSuite> document_suites(const doc::BenchDocument& doc, const std::string& source);

// `p2pcheck doctor --format json` (p2pcheck.doctor.report v1): pass and warn pass (a warning
// keeps its text), fail fails with the hint, skip and unknown are skipped with the reason.
// InputError "<source>: ..." for another schema or a malformed report.
CheckSuite doctor_suite(const nlohmann::json& report, const std::string& hostname,
                        const std::string& source);

// A run's verdict: every check of the acceptance rules one case (warnings pass with their text,
// not meaningful and skipped are skipped), and as properties the verdict, its caveats, its
// suspect ("p2pcheck.suspect") and each GPU's own outcome ("p2pcheck.gpu.gpu5").
CheckSuite verdict_suite(const doc::RunVerdict& v, const std::string& hostname,
                         const std::string& timestamp);

// A comparison: regressed and lost fail, not judged and missing are skipped, the rest pass; its
// suspect and each GPU's outcome as properties, as for a run.
CheckSuite compare_suite(const Comparison& c, const std::string& hostname,
                         const std::string& timestamp);

// Makes every case name unique across all suites ("name", "name #2", ...): GitLab and others
// merge or drop cases that share a name.
void make_case_names_unique(std::vector<CheckSuite>& suites);

}  // namespace p2p::report
