#include "cli/check_command.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/live_topology.hpp"
#include "cli/machine_outputs.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/utc_time.hpp"
#include "doctor/collect.hpp"
#include "doctor/facts.hpp"
#include "doctor/report.hpp"
#include "doctor/rules.hpp"
#include "doctor/verdict.hpp"
#include "report/check_cases.hpp"
#include "report/prometheus_metrics.hpp"
#include "report/run_lines.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/topo_text.hpp"

#if P2P_WITH_BENCH
#include "bench/peer_access_check.hpp"
#endif

namespace p2p::cli {
namespace {

struct CheckOptions {
  bool quick = false;
  bool brief = false;
  std::string facts;   // doctor facts instead of this host
  std::string input;   // topology instead of this host
  std::string expect;  // gate: golden topology
  std::string policy;  // gate: policy
  double probe_timeout_s = 15;
  std::string junit;
  std::string jsonl;
  std::string prom;
};

struct Step {
  std::string name;
  int exit_code = 0;
  std::string line;  // one line: what the step found
};

// Doctor checks whose failure is about something a quick check cannot act on are still
// failures: the doctor's exit code is the health check's verdict on the driver stack.
Step doctor_step(const CheckOptions& o, const std::string& host, JsonLines* lines, std::vector<report::CheckSuite>& suites,
                 report::Exposition& prom) {
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
    for (const auto& l : report::doctor_lines(report_json, host, utc_now_iso8601())) lines->write(l);
  }
  suites.push_back(report::doctor_suite(report_json, host, "doctor"));
  report::add_doctor_metrics(prom, report_json, host, "doctor");
  Step s{"doctor", doctor::exit_code_of(findings), "doctor: " + verdict.headline};
  int failed = 0;
  std::string first;
  for (const auto& f : findings) {
    if (f.status != doctor::Status::kFail) continue;
    if (failed++ == 0) first = f.id + ": " + f.summary;
  }
  if (failed > 0) s.line += " (" + std::to_string(failed) + " failed, first " + first + ")";
  return s;
}

Step gate_step(const CheckOptions& o, const topo::TopologySnapshot& t, const std::optional<topo::TopologySnapshot>& expected,
               const std::optional<topo::GatePolicy>& policy, const std::string& host, JsonLines* lines,
               std::vector<report::CheckSuite>& suites, report::Exposition& prom) {
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
  Step s{"gate", d.passed ? kExitOk : kExitFailed, d.passed ? "gate: pass" : "gate: BLOCKED"};
  for (const auto& r : d.reasons) {
    if (r.verdict == "block") {
      s.line += " (" + std::to_string(d.blocking()) + " blocking, first " + r.rule + ": " + r.message + ")";
      break;
    }
  }
  return s;
}

int run_check(const CheckOptions& o) {
  if (!o.quick)
    throw InputError("check: give --quick (doctor, topology and gate; the measuring chain is scripts/p2pcheck-all.sh)");
  if (o.jsonl == "-")
    throw InputError("check: --jsonl - would mix with the check's own lines on stdout: give --jsonl a file");
  // Every file first: bad input fails alone, before any probe runs.
  std::optional<topo::GatePolicy> policy;
  if (!o.policy.empty()) policy = topo::read_policy_file(o.policy);
  std::optional<topo::TopologySnapshot> expected;
  if (!o.expect.empty()) {
    expected = topo::load_topology(o.expect);
    expected->source = o.expect;
  }
  if (!o.facts.empty()) (void)read_text_file(o.facts);
  const std::unique_ptr<JsonLines> lines = open_jsonl(o.jsonl);
  const std::string host = this_hostname();
  const std::string started = utc_now_iso8601();
  if (lines) lines->write(report::jsonl_line("run_start", "check", host, started, {{"tool_version", P2P_VERSION}}));

  std::vector<report::CheckSuite> suites;
  report::Exposition prom;
  std::vector<Step> steps;
  steps.push_back(doctor_step(o, host, lines.get(), suites, prom));

  // A GPU node that sees no GPU is unhealthy (1), not a usage problem: schedulers and
  // node-problem-detector read anything but 0 and 1 as "could not check".
  std::optional<topo::TopologySnapshot> t;
  try {
    t = o.input.empty() ? live_topology() : topo::load_topology(o.input);
  } catch (const NoGpuError& e) {
    steps.push_back(Step{"topo", kExitFailed, std::string("topology: no GPU: ") + e.what()});
  }
  if (t) {
    steps.push_back(Step{"topo", kExitOk,
                         "topology: " + std::to_string(t->gpus.size()) + " GPU(s), " +
                             topo::describe_environment(t->environment)});
    steps.push_back(gate_step(o, *t, expected, policy, host, lines.get(), suites, prom));
  }

  int code = kExitOk;
  for (const auto& s : steps) code = std::max(code, s.exit_code);
  std::string verdict = std::string("p2pcheck check: ") + (code == kExitOk ? "OK" : "FAIL") + " on " + host;
  for (const auto& s : steps) {
    if (s.exit_code != kExitOk) verdict += "; " + s.line;
  }
  if (!o.brief) {
    for (const auto& s : steps) std::cout << (s.exit_code == kExitOk ? "ok    " : "FAIL  ") << s.line << "\n";
  }
  std::cout << verdict << "\n" << std::flush;

  if (lines) {
    lines->write(report::jsonl_line("run_end", "check", host, utc_now_iso8601(), {{"exit_code", code}}));
  }
  write_junit(o.junit, suites);
  if (!o.prom.empty()) {
    if (const auto ts = report::unix_seconds_of(started)) report::add_last_run(prom, host, "check", *ts);
    write_text_file_atomically(o.prom, prom.render());
  }
  return code;
}

}  // namespace

Command add_check_command(CLI::App& root) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* app = root.add_subcommand(
      "check", "Node health check for schedulers and monitoring: --quick runs doctor, topology and gate (no "
               "benchmark) in seconds; exit 0 healthy, 1 unhealthy, 2 bad input");
  app->add_flag("--quick", o->quick, "doctor + topology + gate, no benchmark");
  app->add_flag("--brief", o->brief, "print only the verdict line (for scheduler and monitoring logs)");
  app->add_option("--expect", o->expect, "Gate: golden topology (hwloc XML or snapshot) this host must match")
      ->type_name("FILE");
  app->add_option("--policy", o->policy, "Gate: policy JSON (min_gpus, max_path, forbid, min_link, require_p2p)")
      ->type_name("FILE");
  app->add_option("--facts", o->facts, "Judge saved doctor facts instead of this host")->type_name("FILE");
  app->add_option("--input", o->input, "Judge a topology file instead of this host")->type_name("FILE");
  app->add_option("--probe-timeout", o->probe_timeout_s,
                  "Seconds each driver probe (device open, NVML, CUDA) may take (default 15; Slurm kills a "
                  "health check after 60 s)")
      ->check(CLI::Range(1.0, 600.0));
  add_junit_option(app, o->junit);
  add_jsonl_option(app, o->jsonl);
  app->add_option("--prom", o->prom, "Also write the results as a Prometheus textfile (atomically), for node_exporter")
      ->type_name("FILE.prom");
  return Command{app, [o] { return run_check(*o); }};
}

}  // namespace p2p::cli
