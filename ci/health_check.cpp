#include "ci/health_check.hpp"

#include <memory>
#include <optional>
#include <ostream>

#include "ci/health_verdict.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/utc_time.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/facts.hpp"
#include "doctor/report.hpp"
#include "doctor/rules.hpp"
#include "doctor/verdict.hpp"
#include "report/check_cases.hpp"
#include "report/prometheus_metrics.hpp"
#include "report/run_lines.hpp"
#include "session/live_topology.hpp"
#include "session/machine_outputs.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/topo_text.hpp"

#if P2P_WITH_BENCH
#include "bench/measure/peer_access_check.hpp"
#endif

namespace p2p::ci {
namespace {

// Doctor checks whose failure is about something a quick check cannot act on are still
// failures: the doctor's exit code is the health check's verdict on the driver stack.
HealthStep doctor_step(const HealthCheckOptions& o, const std::string& host, JsonLines* lines,
                       std::vector<report::CheckSuite>& suites, report::Exposition& prom) {
  doctor::Facts facts;
  if (!o.facts.empty()) {
    facts = doctor::load_facts_file(o.facts);
  } else {
    doctor::CollectOptions c;
    c.probe_timeout_ms = static_cast<int>(o.probe_timeout_s * 1000);
    facts = doctor::collect_facts(c);
  }
  const auto findings = doctor::judge(facts);
  const auto verdict = doctor::conclude(facts, findings);
  const nlohmann::json report_json = doctor::render_json(facts, findings, verdict);
  if (lines) {
    for (const auto& l : report::doctor_lines(report_json, host, utc_now_iso8601()))
      lines->write(l);
  }
  suites.push_back(report::doctor_suite(report_json, host, "doctor"));
  report::add_doctor_metrics(prom, report_json, host, "doctor");
  return HealthStep{"doctor", doctor::exit_code_of(findings),
                    doctor_step_line(verdict.headline, findings)};
}

HealthStep gate_step([[maybe_unused]] const HealthCheckOptions& o, const topo::TopologySnapshot& t,
                     const std::optional<topo::TopologySnapshot>& expected,
                     const std::optional<topo::GatePolicy>& policy, const std::string& host,
                     JsonLines* lines, std::vector<report::CheckSuite>& suites,
                     report::Exposition& prom) {
  topo::PeerAccessCheck peer_access;
#if P2P_WITH_BENCH
  if (o.input.empty()) peer_access = bench::cuda_peer_access_check();
#endif
  const topo::GateDecision d = topo::evaluate_gate(t, expected, policy, peer_access);
  if (lines) {
    for (const auto& l : report::gate_lines(d, "check", host, utc_now_iso8601())) lines->write(l);
  }
  suites.push_back(report::gate_suite(d, host, utc_now_iso8601()));
  report::add_gate_metrics(prom, d, host);
  return HealthStep{"gate", d.passed ? kExitOk : kExitFailed, gate_step_line(d)};
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
  std::optional<topo::GatePolicy> policy;
  if (!o.policy.empty()) policy = topo::read_policy_file(o.policy);
  std::optional<topo::TopologySnapshot> expected;
  if (!o.expect.empty()) {
    expected = topo::load_topology(o.expect);
    expected->source = o.expect;
  }
  if (!o.facts.empty()) (void)read_text_file(o.facts);
  const std::unique_ptr<JsonLines> lines = session::open_jsonl(o.jsonl);
  const std::string host = session::this_hostname();
  const std::string started = utc_now_iso8601();
  if (lines)
    lines->write(
        report::jsonl_line("run_start", "check", host, started, {{"tool_version", P2P_VERSION}}));

  std::vector<report::CheckSuite> suites;
  report::Exposition prom;
  std::vector<HealthStep> steps;
  steps.push_back(doctor_step(o, host, lines.get(), suites, prom));

  // A GPU node that sees no GPU is unhealthy (1), not a usage problem: schedulers and
  // node-problem-detector read anything but 0 and 1 as "could not check".
  std::optional<topo::TopologySnapshot> t;
  try {
    t = o.input.empty() ? session::live_topology() : topo::load_topology(o.input);
  } catch (const NoGpuError& e) {
    steps.push_back(HealthStep{"topo", kExitFailed, std::string("topology: no GPU: ") + e.what()});
  }
  if (t) {
    steps.push_back(HealthStep{"topo", kExitOk,
                               "topology: " + std::to_string(t->gpus.size()) + " GPU(s), " +
                                   topo::describe_environment(t->environment)});
    steps.push_back(gate_step(o, *t, expected, policy, host, lines.get(), suites, prom));
  }

  const int code = worst_exit_code(steps);
  if (!o.brief) {
    for (const auto& s : steps)
      out << (s.exit_code == kExitOk ? "ok    " : "FAIL  ") << s.line << "\n";
  }
  out << verdict_line(steps, host) << "\n" << std::flush;

  if (lines) {
    lines->write(
        report::jsonl_line("run_end", "check", host, utc_now_iso8601(), {{"exit_code", code}}));
  }
  session::write_junit(o.junit, suites);
  if (!o.prom.empty()) {
    if (const auto ts = report::unix_seconds_of(started))
      report::add_last_run(prom, host, "check", *ts);
    write_text_file_atomically(o.prom, prom.render());
  }
  return code;
}

}  // namespace p2p::ci
