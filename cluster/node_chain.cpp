#include "cluster/node_chain.hpp"

#include <algorithm>
#include <iostream>

#include "cluster/node_lines.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/json_lines.hpp"
#include "common/utc_time.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/report.hpp"
#include "doctor/rules.hpp"
#include "doctor/verdict.hpp"
#include "report/run_lines.hpp"
#include "session/live_topology.hpp"
#include "session/machine_outputs.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/gate.hpp"
#include "topology/topo_text.hpp"

#if P2P_WITH_BENCH
#include "bench/measure/peer_access_check.hpp"
#endif

namespace p2p::cluster {
namespace {

// One chain: where its lines go, and the step bookkeeping every step shares.
class Chain {
 public:
  Chain(const NodeHooks& hooks, std::string host, std::ostream& progress)
      : hooks_(hooks), host_(std::move(host)), progress_(progress) {}
  const std::string& host() const { return host_; }
  void emit(const nlohmann::json& line) const { hooks_.emit(line); }
  void finish_step(const std::string& step, int exit_code, const std::string& summary) {
    emit(step_line(step, exit_code, summary, host_, utc_now_iso8601()));
    progress_ << (exit_code == kExitOk ? "ok    " : "FAIL  ") << summary << "\n" << std::flush;
    worst_ = std::max(worst_, exit_code);
    if (hooks_.after_step) hooks_.after_step(step);
  }
  int worst() const { return worst_; }

 private:
  const NodeHooks& hooks_;
  std::string host_;
  std::ostream& progress_;
  int worst_ = kExitOk;
};

void doctor_step(Chain& chain, const NodeOptions& o, const NodeInputs& in) {
  doctor::Facts facts;
  if (in.fixture) {
    facts = in.fixture->facts;
  } else {
    doctor::CollectOptions c;
    c.probe_timeout_ms = static_cast<int>(o.probe_timeout_s * 1000);
    facts = doctor::collect_facts(c);
  }
  const auto findings = doctor::judge(facts);
  const auto verdict = doctor::conclude(facts, findings);
  for (const auto& l : report::doctor_lines(doctor::render_json(facts, findings, verdict),
                                            chain.host(), utc_now_iso8601()))
    chain.emit(l);
  chain.finish_step("doctor", doctor::exit_code_of(findings), "doctor: " + verdict.headline);
}

std::optional<topo::TopologySnapshot> topo_step(Chain& chain, const NodeInputs& in) {
  std::optional<topo::TopologySnapshot> t;
  try {
    t = in.fixture ? in.fixture->topology : session::live_topology();
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

topo::GateDecision gate_step(Chain& chain, const NodeInputs& in, const topo::TopologySnapshot& t) {
  topo::PeerAccessCheck peer_access;
#if P2P_WITH_BENCH
  if (!in.fixture) peer_access = bench::cuda_peer_access_check();
#endif
  topo::GateDecision d =
      topo::evaluate_gate(t, in.expected, in.policy, peer_access);  // returned: moved, not copied
  for (const auto& l : report::gate_lines(d, kNodeCommand, chain.host(), utc_now_iso8601()))
    chain.emit(l);
  std::string summary = d.passed ? "gate: pass" : "gate: BLOCKED";
  for (const auto& r : d.reasons) {
    if (r.verdict != "block") continue;
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
  chain.finish_step("bench", r.exit_code,
                    "bench: " + std::to_string(c.ok) + " figure(s) verified, " +
                        std::to_string(c.failed) + " failed, " + std::to_string(c.waived) +
                        " waived, " + std::to_string(c.errors) + " error(s)");
}

}  // namespace

NodeInputs read_node_inputs(const NodeOptions& o) {
  NodeInputs in;
  if (!o.policy.empty()) in.policy = topo::read_policy_file(o.policy);
  if (!o.expect.empty()) {
    in.expected = topo::load_topology(o.expect);
    in.expected->source = o.expect;
  }
  if (!o.fixture_host.empty()) in.fixture = load_fixture_host(o.fixture_host);
  return in;
}

std::string node_hostname(const NodeInputs& in) {
  return in.fixture ? in.fixture->hostname : session::this_hostname();
}

int run_node_chain(const NodeOptions& o, const NodeInputs& in, const NodeHooks& hooks,
                   std::ostream& progress) {
  Chain chain(hooks, node_hostname(in), progress);
  const std::string host = chain.host();
  chain.emit(report::jsonl_line("run_start", kNodeCommand, host, utc_now_iso8601(),
                                {{"tool_version", P2P_VERSION}}));
  chain.emit(
      host_line(host, utc_now_iso8601(), P2P_VERSION, in.fixture ? "fixture" : "live", hooks.rank));
  doctor_step(chain, o, in);
  if (const auto t = topo_step(chain, in)) {
    const topo::GateDecision gate = gate_step(chain, in, *t);
    // As bench: a blocked host is not measured unless --skip-gate says so (and it is recorded).
    if (gate.passed || o.skip_gate) bench_step(chain, o, in, *t, gate, progress);
  }
  const int code = chain.worst();
  chain.emit(
      report::jsonl_line("run_end", kNodeCommand, host, utc_now_iso8601(), {{"exit_code", code}}));
  return code;
}

int run_node(const NodeOptions& o, const std::string& jsonl_path) {
  const NodeInputs in = read_node_inputs(o);  // bad files fail here, before anything runs
  JsonLines lines(jsonl_path);
  std::ostream& progress = lines.to_stdout() ? std::cerr : std::cout;
  NodeHooks hooks;
  hooks.emit = [&lines](const nlohmann::json& l) { lines.write(l); };
  const int code = run_node_chain(o, in, hooks, progress);
  progress << "p2pcheck node: " << (code == kExitOk ? "OK" : "FAIL") << " on " << node_hostname(in)
           << "\n"
           << std::flush;
  return code;
}

}  // namespace p2p::cluster
