// The node chain of a fleet run, one host: doctor -> topo -> gate -> bench, each step's items
// written as JSON lines the moment they are known (cluster/host_lines.hpp describes them), so a
// host that dies mid-run leaves every finished step behind. `p2pcheck node` runs it alone,
// `p2pcheck cluster` once per host under MPI; both read their files first (bad input exits 2
// before anything runs).
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cluster/fixture_host.hpp"
#include "cluster/node_bench.hpp"
#include "document/verdict.hpp"
#include "topology/policy.hpp"
#include "topology/snapshot.hpp"

namespace p2p::cluster {

struct NodeOptions {
  std::string expect;  // gate: golden topology
  std::string policy;  // gate: policy JSON
  bool skip_gate = false;
  double probe_timeout_s = 15;
  session::BenchSweepRequest bench;
  std::string fixture_host;  // test only: the host's facts, topology and figures from files
};

// What the chain needs from files, read before it starts.
struct NodeInputs {
  std::optional<topo::TopologySnapshot> expected;
  std::optional<topo::GatePolicy> policy;
  std::optional<FixtureHost> fixture;
};
NodeInputs read_node_inputs(const NodeOptions& o);

struct NodeHooks {
  // Each line, in order (to the --jsonl file, and under MPI to rank 0 as well).
  std::function<void(const nlohmann::json&)> emit;
  // After each step's lines are out; the MPI path's test stall hook lives here.
  std::function<void(const std::string& step)> after_step;
  std::optional<int> rank;  // MPI rank, recorded in the host line
};

// This host's name as the lines record it: the fixture's, else gethostname().
std::string node_hostname(const NodeInputs& in);

struct NodeOutcome {
  // The worst step's: 0 ok, 1 a verdict against the host, 3 no usable GPU for bench, 4 a
  // runtime failure, 5 a hang.
  int exit_code = 0;
  doc::RunVerdict verdict;  // each step a check; its summary is in the run_end line too
};

// Runs the chain. `progress`: one line per step, for people.
NodeOutcome run_node_chain(const NodeOptions& o, const NodeInputs& in, const NodeHooks& hooks,
                           std::ostream& progress);

// `p2pcheck node`: the inputs read first, then the chain with its lines to `jsonl_path` ("-":
// stdout, and the progress to stderr), then the host's verdict block, its last line
// "p2pcheck node on <host>: PASS|FAIL — <first reason>"; the chain's exit code.
int run_node(const NodeOptions& o, const std::string& jsonl_path);

}  // namespace p2p::cluster
