#include "cluster/node_chain.hpp"

#include <algorithm>
#include <iostream>

#include "cluster/node_lines.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/json_lines.hpp"
#include "common/utc_time.hpp"
#include "doctor/collect/live_topology.hpp"
#include "report/run_lines.hpp"
#include "session/doctor_run.hpp"
#include "session/gate_health.hpp"
#include "session/gate_verdict.hpp"
#include "session/live_peer_access.hpp"
#include "session/machine_outputs.hpp"
#include "session/run_verdict.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/topo_text.hpp"

namespace p2p::cluster {
namespace {

// A step's exit code as the host's verdict counts it: 1 is a verdict against the host, 5 a hang
// (which fails it too), 3 and 4 a check that could not be made.
doc::Outcome step_outcome(int exit_code) {
  if (exit_code == kExitOk) return doc::Outcome::kPass;
  return exit_code == kExitFailed || exit_code == kExitHang ? doc::Outcome::kFail
                                                            : doc::Outcome::kError;
}

// One chain: where its lines go, and the step bookkeeping every step shares: each finished
// step is a check of the host's verdict.
class Chain {
 public:
  Chain(const NodeHooks& hooks, std::string host, std::ostream& progress)
      : hooks_(hooks), host_(std::move(host)), progress_(progress) {
    verdict_.judged_by = kNodeCommand;
    verdict_.policy = "each step's own";
  }
  const std::string& host() const { return host_; }
  void emit(const nlohmann::json& line) const { hooks_.emit(line); }
  void finish_step(const std::string& step, int exit_code, const std::string& summary) {
    emit(step_line(step, exit_code, summary, host_, utc_now_iso8601()));
    progress_ << (exit_code == kExitOk ? "ok    " : "FAIL  ") << summary << "\n" << std::flush;
    worst_ = std::max(worst_, exit_code);
    doc::Check c;
    c.rule = step;
    c.subject = host_;
    c.outcome = step_outcome(exit_code);
    c.message = summary + (exit_code == kExitOk ? "" : " (exit " + std::to_string(exit_code) + ")");
    verdict_.hung = verdict_.hung || exit_code == kExitHang;
    doc::add_check(verdict_, std::move(c));
    if (hooks_.after_step) hooks_.after_step(step);
  }
  // What the bench step's verdict says is true of its run travels in the host's verdict, and
  // from its run_end line to the fleet's.
  void add_caveats(const std::vector<doc::Caveat>& caveats) {
    for (const auto& c : caveats) doc::add_caveat(verdict_, c.kind, c.detail);
  }
  int worst() const { return worst_; }
  const doc::RunVerdict& verdict() const { return verdict_; }

 private:
  const NodeHooks& hooks_;
  std::string host_;
  std::ostream& progress_;
  int worst_ = kExitOk;
  doc::RunVerdict verdict_;
};

std::vector<session::FailingGpu> doctor_step(Chain& chain, const NodeOptions& o,
                                             const NodeInputs& in) {
  session::DoctorRequest request;
  if (in.fixture) request.facts = in.fixture->facts;
  request.probe_timeout_ms = static_cast<int>(o.probe_timeout_s * 1000);
  const session::DoctorOutcome d = session::run_doctor(request);
  for (const auto& l : report::doctor_lines(d.verdict_json, chain.host(), utc_now_iso8601()))
    chain.emit(l);
  chain.finish_step("doctor", d.exit_code, "doctor: " + d.verdict.headline);
  return session::failing_gpus_of(d.verdict);
}

std::optional<topo::TopologySnapshot> topo_step(Chain& chain, const NodeInputs& in) {
  std::optional<topo::TopologySnapshot> t;
  try {
    t = in.fixture ? in.fixture->topology : doctor::live_topology();
  } catch (const NoGpuError& e) {
    // As `check`: a GPU node that sees no GPU is unhealthy (1), not a usage problem.
    chain.finish_step("topo", kExitFailed, std::string("topology: no GPU: ") + e.what());
    return std::nullopt;
  }
  chain.emit(topology_line(*t, chain.host(), utc_now_iso8601()));
  chain.finish_step("topo", kExitOk,
                    "topology: " + std::to_string(t->gpus.size()) + " GPU(s), " +
                        topo::describe_environment(t->environment));
  return t;
}

topo::GateDecision gate_step(Chain& chain, const NodeInputs& in, const topo::TopologySnapshot& t,
                             const std::vector<session::FailingGpu>& failing) {
  topo::PeerAccessCheck peer_access;
  if (!in.fixture) peer_access = session::live_peer_access_check();
  topo::GateDecision d =
      topo::evaluate_gate(t, in.expected, in.policy, peer_access);  // returned: moved, not copied
  session::block_failing_gpus(d, t, failing);                       // a failing GPU is not measured
  for (const auto& l : report::gate_lines(d, kNodeCommand, chain.host(), utc_now_iso8601()))
    chain.emit(l);
  std::string summary = d.passed ? "gate: pass" : "gate: BLOCKED";
  for (const auto& r : d.reasons) {
    if (r.verdict != topo::GateVerdict::kBlock) continue;
    summary +=
        " (" + std::to_string(d.blocking()) + " blocking, first " + r.rule + ": " + r.message + ")";
    break;
  }
  chain.finish_step("gate", d.passed ? kExitOk : kExitFailed, summary);
  return d;
}

void bench_step(Chain& chain, const NodeOptions& o, const NodeInputs& in,
                const topo::TopologySnapshot& t, const topo::GateDecision& gate,
                std::ostream& progress) {
  const std::string host = chain.host();
  const FigureSink emit = [&chain, host](const nlohmann::json& figure) {
    chain.emit(report::figure_line(figure, host, utc_now_iso8601()));
  };
  NodeBenchResult r;
  try {
    r = in.fixture ? replay_figures(in.fixture->figures, emit)
                   : run_live_bench(o.bench, t, gate, o.skip_gate, emit, progress);
  } catch (const NoGpuError& e) {
    chain.finish_step("bench", kExitNoGpu, std::string("bench: no usable GPU: ") + e.what());
    return;
  } catch (const HangError& e) {
    chain.finish_step("bench", kExitHang, std::string("bench: hang: ") + e.what());
    return;
  } catch (const InputError&) {
    throw;  // a bad --gpus or --sizes is the user's, not the host's
  } catch (const std::exception& e) {
    chain.finish_step("bench", kExitRuntime, std::string("bench: ") + e.what());
    return;
  }
  const auto& c = r.counts;
  chain.add_caveats(r.caveats);
  chain.finish_step("bench", r.exit_code,
                    "bench: " + std::to_string(c.ok) + " figure(s) verified, " +
                        std::to_string(c.failed) + " failed, " + std::to_string(c.waived) +
                        " waived, " + std::to_string(c.errors) + " error(s)" +
                        (r.first_reason.empty() ? "" : "; first: " + r.first_reason));
}

}  // namespace

NodeInputs read_node_inputs(const NodeOptions& o) {
  NodeInputs in;
  session::GateFiles gate_files = session::read_policy_and_golden(o.policy, o.expect);
  in.policy = std::move(gate_files.policy);
  in.expected = std::move(gate_files.expected);
  if (!o.fixture_host.empty()) in.fixture = load_fixture_host(o.fixture_host);
  return in;
}

std::string node_hostname(const NodeInputs& in) {
  return in.fixture ? in.fixture->hostname : session::this_hostname();
}

NodeOutcome run_node_chain(const NodeOptions& o, const NodeInputs& in, const NodeHooks& hooks,
                           std::ostream& progress) {
  Chain chain(hooks, node_hostname(in), progress);
  const std::string host = chain.host();
  chain.emit(report::run_start_line(kNodeCommand, host, utc_now_iso8601()));
  chain.emit(
      host_line(host, utc_now_iso8601(), P2P_VERSION, in.fixture ? "fixture" : "live", hooks.rank));
  const auto failing = doctor_step(chain, o, in);
  if (const auto t = topo_step(chain, in)) {
    const topo::GateDecision gate = gate_step(chain, in, *t, failing);
    // As bench: a blocked host is not measured unless --skip-gate says so (and it is recorded).
    if (gate.passed || o.skip_gate) bench_step(chain, o, in, *t, gate, progress);
  }
  NodeOutcome out{chain.worst(), chain.verdict()};
  chain.emit(report::run_end_line(kNodeCommand, host, utc_now_iso8601(), out.exit_code,
                                  {{"verdict", session::verdict_summary(out.verdict)}}));
  return out;
}

int run_node(const NodeOptions& o, const std::string& jsonl_path) {
  const NodeInputs in = read_node_inputs(o);  // bad files fail here, before anything runs
  JsonLines lines(jsonl_path);
  std::ostream& progress = lines.to_stdout() ? std::cerr : std::cout;
  NodeHooks hooks;
  hooks.emit = [&lines](const nlohmann::json& l) { lines.write(l); };
  const NodeOutcome out = run_node_chain(o, in, hooks, progress);
  progress << doc::format_verdict(out.verdict, "node on " + node_hostname(in)) << std::flush;
  return out.exit_code;
}

}  // namespace p2p::cluster
