// The doctor's step as every command runs it (doctor, check --quick, node, cluster): the facts
// of this host collected live, or read from a saved facts file, or handed in (a fixture host),
// then judged and concluded, with the verdict rendered as JSON for JUnit, JSON lines and
// Prometheus, and the exit code. Judging given facts is pure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"

namespace p2p::session {

// Where the facts come from: `facts` when given, else `facts_file`, else this host (under
// `root` when given: files only, no live probes).
struct DoctorRequest {
  std::optional<doctor::Facts> facts;
  std::string facts_file;
  std::string root;
  int logical_gpus = 0;                 // the peer copy between N logical GPUs (0: the real ones)
  std::optional<int> probe_timeout_ms;  // per driver probe; default: the collector's
  std::string save_facts;               // write the facts judged here, atomically ("" = no)
  std::string junit;                    // and the verdict as JUnit, replaced with them ("" = no)
  std::string json;                     // and the report (verdict_json), with them ("" = no)
};

struct DoctorOutcome {
  doctor::Facts facts;
  std::vector<doctor::Finding> findings;
  doctor::Verdict verdict;
  nlohmann::json verdict_json;  // p2pcheck.doctor.report, as doctor --format json prints it
  int exit_code = 0;            // 0 no check failed, 1 one did
};

// The findings, the verdict and its JSON for these facts.
DoctorOutcome judge_facts(doctor::Facts facts);

// InputError for options that cannot go together (saved facts with --root or --logical-gpus)
// or out of range, then the facts, saved where asked, then judged.
DoctorOutcome run_doctor(const DoctorRequest& r);

}  // namespace p2p::session
