#include "cli/cluster_mpi_run.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "cluster/host_groups.hpp"
#include "cluster/host_lines.hpp"
#include "cluster/mpi/line_gather.hpp"
#include "cluster/mpi/mpi_session.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/json_lines.hpp"

namespace p2p::cli {
namespace {

using Clock = std::chrono::steady_clock;

// TEST ONLY: P2P_TEST_STALL_RANK=<rank>:<step> makes that rank stop answering right after it
// finished <step> (doctor, topo, gate, bench), as a host whose bench hangs would: rank 0 must
// still finish by its deadline and report the host with that last step.
std::optional<std::string> stall_step_for(int rank) {
  const char* env = std::getenv("P2P_TEST_STALL_RANK");
  if (env == nullptr) return std::nullopt;
  const std::string spec = env;
  const auto colon = spec.find(':');
  if (colon == std::string::npos || spec.substr(0, colon) != std::to_string(rank)) return std::nullopt;
  return spec.substr(colon + 1);
}

[[noreturn]] void stall_forever() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

int exit_code_of(const std::exception& e) {
  if (dynamic_cast<const InputError*>(&e)) return kExitBadInput;
  if (dynamic_cast<const NoGpuError*>(&e)) return kExitNoGpu;
  if (dynamic_cast<const HangError*>(&e)) return kExitHang;
  return kExitRuntime;
}

NodeInputs inputs_of_rank(const ClusterOptions& o, const cluster::MpiSession& s, NodeOptions& node) {
  if (!o.fixture_hosts.empty()) {
    if (o.fixture_hosts.size() < static_cast<std::size_t>(s.size()))
      throw InputError("cluster: " + std::to_string(o.fixture_hosts.size()) + " --fixture-host DIR(s) for " +
                       std::to_string(s.size()) + " ranks: give one per rank");
    node.fixture_host = o.fixture_hosts[static_cast<std::size_t>(s.rank())];
  }
  return read_node_inputs(node);
}

// The chain of a host rank: lines to its own file as they happen, and to rank 0.
int run_host_rank(const ClusterOptions& o, const cluster::MpiSession& s, const NodeOptions& node, const NodeInputs& in,
                  std::vector<std::string>& own_lines) {
  std::filesystem::create_directories(o.lines_dir);
  const std::string host = node_hostname(in);
  JsonLines file(o.lines_dir + "/" + (host.empty() ? std::string("host") : host) + "-rank" + std::to_string(s.rank()) +
                 ".jsonl");
  std::optional<cluster::LineSender> sender;
  if (s.rank() != 0) sender.emplace(s);
  NodeHooks hooks;
  hooks.rank = s.rank();
  hooks.emit = [&](const nlohmann::json& line) {
    file.write(line);
    const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (sender) {
      sender->send(text);
    } else {
      own_lines.push_back(text);
    }
  };
  const std::optional<std::string> stall = stall_step_for(s.rank());
  hooks.after_step = [&stall](const std::string& step) {
    if (stall && *stall == step) stall_forever();
  };
  std::ostream null_stream(nullptr);  // other ranks' progress would interleave with rank 0's
  const int code = run_node_chain(node, in, hooks, s.rank() == 0 ? std::cerr : null_stream);
  if (sender) sender->finish();
  return code;
}

int run_cluster(const ClusterOptions& o, cluster::MpiSession& s) {
  const Clock::time_point started = Clock::now();
  const cluster::MergeOptions merge = read_merge_options(o.outputs);  // bad input fails on every rank alike
  NodeOptions node = o.node;
  const NodeInputs in = inputs_of_rank(o, s, node);
  const std::vector<std::string> names = s.all_gather(node_hostname(in));
  std::vector<int> leaders(names.size());
  for (std::size_t r = 0; r < leaders.size(); ++r) leaders[r] = static_cast<int>(r);
  if (o.rank_per_gpu) leaders = cluster::host_leaders(names);

  std::vector<std::string> own_lines;
  if (leaders[s.rank()] == s.rank()) run_host_rank(o, s, node, in, own_lines);
  if (s.rank() != 0) {
    cluster::wait_for_release(s);
    return kExitOk;  // the fleet's verdict is rank 0's
  }

  std::vector<int> host_ranks;
  for (std::size_t r = 0; r < leaders.size(); ++r) {
    if (leaders[r] == static_cast<int>(r)) host_ranks.push_back(static_cast<int>(r));
  }
  const auto deadline = started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.deadline_s));
  std::vector<cluster::GatheredRank> gathered = cluster::gather_lines(s, host_ranks, deadline);
  gathered[0] = cluster::GatheredRank{own_lines, true};
  std::vector<cluster::HostRun> hosts;
  bool all_done = true;
  for (int r : host_ranks) {
    cluster::HostRun h;
    h.source = "rank " + std::to_string(r);
    h.hostname = names[static_cast<std::size_t>(r)];  // a rank that sent nothing is still named
    std::size_t number = 0;
    for (const auto& line : gathered[static_cast<std::size_t>(r)].lines) cluster::add_host_line(h, line, ++number);
    all_done = all_done && gathered[static_cast<std::size_t>(r)].done;
    hosts.push_back(std::move(h));
  }
  const int code = report_fleet(hosts, merge, o.outputs, "cluster", s.size());
  if (!all_done) {
    std::cerr << "p2pcheck cluster: a host rank did not finish by the deadline: every output is written; ending the "
                 "job with MPI_Abort("
              << code << ")\n";
    s.abort(code);
  }
  cluster::release_all(s);
  return code;
}

}  // namespace

int run_cluster_under_mpi(const ClusterOptions& o) {
  cluster::MpiSession session(nullptr, nullptr);
  try {
    return run_cluster(o, session);
  } catch (const std::exception& e) {
    // Other ranks may be waiting for this one in a collective: end the whole job, now.
    std::cerr << "p2pcheck cluster: rank " << session.rank() << ": " << e.what() << "\n" << std::flush;
    session.abort(exit_code_of(e));
  }
}

}  // namespace p2p::cli
