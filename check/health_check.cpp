#include "check/health_check.hpp"

#include <map>
#include <memory>
#include <optional>
#include <ostream>

#include "check/health_verdict.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/utc_time.hpp"
#include "doctor/collect/live_topology.hpp"
#include "report/check_cases.hpp"
#include "report/prometheus_metrics.hpp"
#include "report/run_lines.hpp"
#include "session/doctor_run.hpp"
#include "session/gate_environment.hpp"
#include "session/gate_health.hpp"
#include "session/gate_verdict.hpp"
#include "session/live_peer_access.hpp"
#include "session/machine_outputs.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/topo_text.hpp"

namespace p2p::ci {
namespace {

// What the gate takes from the doctor: the GPUs it found failing, and the environment of the
// host it judged (saved facts carry theirs), where that host is the one the topology is of.
struct FromDoctor {
  std::vector<session::FailingGpu> failing;
  std::map<std::string, std::string> env;
  bool judge_env = false;
};

// Doctor checks whose failure is about something a quick check cannot act on are still
// failures: the doctor's exit code is the health check's verdict on the driver stack.
HealthStep doctor_step(const HealthCheckOptions& o, const std::string& host, JsonLines* lines,
                       std::vector<report::CheckSuite>& suites, report::Exposition& prom,
                       FromDoctor& from_doctor) {
  session::DoctorRequest request;
  request.facts_file = o.facts;
  request.probe_timeout_ms = static_cast<int>(o.probe_timeout_s * 1000);
  const session::DoctorOutcome d = session::run_doctor(request);
  if (lines) {
    for (const auto& l : report::doctor_lines(d.verdict_json, host, utc_now_iso8601()))
      lines->write(l);
  }
  suites.push_back(report::doctor_suite(d.verdict_json, host, "doctor"));
  report::add_doctor_metrics(prom, d.verdict_json, host, "doctor");
  from_doctor.failing = session::failing_gpus_of(d.verdict);
  from_doctor.env = d.facts.env;
  // A captured topology (--input) judged beside this live host's doctor: not the same host.
  from_doctor.judge_env = o.input.empty() || !o.facts.empty();
  return HealthStep{"doctor", d.exit_code, doctor_step_line(d.verdict.headline, d.findings),
                    doctor_step_brief(d.verdict.headline, d.findings)};
}

HealthStep gate_step(const HealthCheckOptions& o, const topo::TopologySnapshot& t,
                     const std::optional<topo::TopologySnapshot>& expected,
                     const std::optional<topo::GatePolicy>& policy, const std::string& host,
                     JsonLines* lines, std::vector<report::CheckSuite>& suites,
                     report::Exposition& prom, const FromDoctor& from_doctor) {
  topo::PeerAccessCheck peer_access;
  if (o.input.empty()) peer_access = session::live_peer_access_check();
  topo::GateDecision d = topo::evaluate_gate(t, expected, policy, peer_access);
  // The doctor's failing GPUs block, and so does an environment under which no run is about P2P,
  // as in `gate`.
  session::block_failing_gpus(d, t, from_doctor.failing);
  if (from_doctor.judge_env)
    session::judge_environment(d, session::p2p_environment_risks(from_doctor.env, t.gpus.size()),
                               o.allow_env);
  if (lines) {
    for (const auto& l : report::gate_lines(d, "check", host, utc_now_iso8601())) lines->write(l);
  }
  suites.push_back(report::gate_suite(d, host, utc_now_iso8601()));
  report::add_gate_metrics(prom, d, host);
  return HealthStep{"gate", d.passed ? kExitOk : kExitFailed, gate_step_line(d), ""};
}

// The topology steps: the host's GPUs (none is unhealthy: a GPU node that sees no GPU is 1, not a
// usage problem, as schedulers and node-problem-detector read anything but 0 and 1 as "could not
// check"), their count against --expect-gpus, and the gate.
void topology_steps(const HealthCheckOptions& o, const session::GateFiles& gate_files,
                    const std::string& host, JsonLines* lines,
                    std::vector<report::CheckSuite>& suites, report::Exposition& prom,
                    const FromDoctor& from_doctor, std::vector<HealthStep>& steps) {
  std::optional<topo::TopologySnapshot> t;
  try {
    t = o.input.empty() ? doctor::live_topology() : topo::load_topology(o.input);
  } catch (const NoGpuError& e) {
    steps.push_back(
        HealthStep{"topo", kExitFailed, std::string("topology: no GPU: ") + e.what(), ""});
    return;
  }
  steps.push_back(HealthStep{"topo", kExitOk,
                             "topology: " + std::to_string(t->gpus.size()) + " GPU(s), " +
                                 topo::describe_environment(t->environment),
                             ""});
  // A node that lost a GPU still passes every other step: only the count it must have can tell
  // (a scheduler's node has a known number).
  steps.push_back(gpu_count_step(t->gpus.size(), o.expect_gpus));
  steps.push_back(gate_step(o, *t, gate_files.expected, gate_files.policy, host, lines, suites,
                            prom, from_doctor));
}

}  // namespace

int run_health_check(const HealthCheckOptions& o, std::ostream& out) {
  if (!o.quick)
    throw InputError(
        "check: give --quick (doctor, topology and gate; the measuring chain is scripts/p2pcheck-all.sh)");
  if (o.jsonl == "-")
    throw InputError(
        "check: --jsonl - would mix with the check's own lines on stdout: give --jsonl a file");
  // Every file first: bad input fails alone, before any probe runs.
  const session::GateFiles gate_files = session::read_policy_and_golden(o.policy, o.expect);
  if (!o.facts.empty()) (void)read_text_file(o.facts);
  for (const auto& v : o.allow_env) session::check_allowed_variable(v);
  const std::unique_ptr<JsonLines> lines = session::open_jsonl(o.jsonl);
  const std::string host = session::this_hostname();
  const std::string started = utc_now_iso8601();
  if (lines) lines->write(report::run_start_line("check", host, started));

  std::vector<report::CheckSuite> suites;
  report::Exposition prom;
  std::vector<HealthStep> steps;
  FromDoctor from_doctor;
  steps.push_back(doctor_step(o, host, lines.get(), suites, prom, from_doctor));
  topology_steps(o, gate_files, host, lines.get(), suites, prom, from_doctor, steps);

  const int code = worst_exit_code(steps);
  if (!o.brief) {
    for (const auto& s : steps)
      out << (s.exit_code == kExitOk ? "ok    " : "FAIL  ") << s.line << "\n";
  }
  out << (o.brief ? brief_line(steps, host) : verdict_line(steps, host)) << "\n" << std::flush;

  if (lines) lines->write(report::run_end_line("check", host, utc_now_iso8601(), code));
  std::vector<FileToWrite> files{session::junit_file(o.junit, suites)};
  if (!o.prom.empty()) {
    if (const auto ts = report::unix_seconds_of(started))
      report::add_last_run(prom, host, "check", *ts);
    files.push_back({o.prom, prom.render()});
  }
  write_text_files_atomically(files);  // replaced together
  return code;
}

}  // namespace p2p::ci
