#include "session/doctor_run.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/render.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/verdict/verdict.hpp"
#include "report/check_cases.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {
namespace {

void check_request(const DoctorRequest& r) {
  if (r.logical_gpus < 0 || r.logical_gpus == 1 || r.logical_gpus > 64)
    throw InputError("--logical-gpus: expected 2 to 64 (0: the real GPUs), got " +
                     std::to_string(r.logical_gpus));
  if (r.logical_gpus != 0 && !r.facts_file.empty())
    throw InputError(
        "--logical-gpus and --facts: saved facts are judged as they are; the peer copy runs only live");
  if (!r.root.empty() && !r.facts_file.empty())
    throw InputError(
        "--root and --facts: give one (--facts replays saved facts, --root reads files under a directory)");
}

doctor::Facts facts_of(const DoctorRequest& r) {
  if (r.facts) return *r.facts;
  if (!r.facts_file.empty()) {
    doctor::Facts f = doctor::load_facts_file(r.facts_file);
    if (f.source.empty()) f.source = r.facts_file;  // the verdict names the file it judged
    return f;
  }
  doctor::CollectOptions c;
  if (!r.root.empty()) c.root = r.root;
  c.peer_copy_logical_gpus = r.logical_gpus;
  if (r.probe_timeout_ms) c.probe_timeout_ms = *r.probe_timeout_ms;
  return doctor::collect_facts(c);
}

}  // namespace

DoctorOutcome judge_facts(doctor::Facts facts) {
  DoctorOutcome o;
  o.facts = std::move(facts);
  o.findings = doctor::judge(o.facts);
  o.verdict = doctor::conclude(o.facts, o.findings);
  o.verdict_json = doctor::render_verdict_json(o.facts, o.findings, o.verdict);
  o.exit_code = doctor::exit_code_of(o.findings, o.verdict);
  return o;
}

DoctorOutcome run_doctor(const DoctorRequest& r) {
  check_request(r);
  DoctorOutcome o = judge_facts(facts_of(r));
  // Replaced together: never new facts beside an old test report.
  write_text_files_atomically(
      {{r.save_facts, r.save_facts.empty() ? "" : json_text(doctor::facts_to_json(o.facts)) + "\n"},
       junit_file(r.junit, {report::doctor_suite(o.verdict_json, this_hostname(), "doctor")}),
       {r.json, r.json.empty() ? "" : json_text(o.verdict_json) + "\n"}});
  return o;
}

}  // namespace p2p::session
