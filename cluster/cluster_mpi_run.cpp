#include "cluster/cluster_mpi_run.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "cluster/host_groups.hpp"
#include "cluster/host_lines.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_lines.hpp"
#include "common/json_text.hpp"
#include "mpi/session.hpp"

namespace p2p::cluster {
namespace {

using Clock = std::chrono::steady_clock;
using mpi::Seconds;

// What a host rank posts to rank 0 after its last line: no line of JSON is empty.
const std::string kDone;
// How long the exchanges around the chains (host names, leaders) may take.
constexpr Seconds kExchange{60.0};
constexpr auto kPollInterval = std::chrono::milliseconds(10);
// A host rank sends its lines to rank 0 in messages of up to this many bytes, newline-joined. A
// message below Open MPI's shared-memory eager limit (4 KiB) leaves without rank 0's help, but
// only while free fragments last: one message per line ran out of them once a step wrote a few
// dozen lines, and a rank that then hung never delivered the lines of the steps it finished.
constexpr std::size_t kBatchBytes = 3072;

// TEST ONLY: P2P_TEST_STALL_RANK=<rank>:<step> makes that rank stop answering right after it
// finished <step> (doctor, topo, gate, bench), as a host whose bench hangs would: rank 0 must
// still finish by its deadline and report the host with that last step.
std::optional<std::string> stall_step_for(int rank) {
  const char* env = std::getenv("P2P_TEST_STALL_RANK");
  if (env == nullptr) return std::nullopt;
  const std::string spec = env;
  const auto colon = spec.find(':');
  if (colon == std::string::npos || spec.substr(0, colon) != std::to_string(rank))
    return std::nullopt;
  return spec.substr(colon + 1);
}

// Stops answering, but keeps MPI's progress engine turning: the lines the rank posted before it
// stalled are delivered (a send that waits for the sender's progress would otherwise depend on
// how many lines came before it, and the test on the eager limits of the MPI build).
[[noreturn]] void stall_forever(mpi::Session& s) {
  for (;;) {
    s.drain();  // nothing is sent to a host rank on this tag: this only drives progress
    std::this_thread::sleep_for(kPollInterval);
  }
}

NodeInputs inputs_of_rank(const ClusterOptions& o, const mpi::Session& s, NodeOptions& node) {
  if (!o.fixture_hosts.empty()) {
    if (o.fixture_hosts.size() < static_cast<std::size_t>(s.size()))
      throw InputError("cluster: " + std::to_string(o.fixture_hosts.size()) +
                       " --fixture-host DIR(s) for " + std::to_string(s.size()) +
                       " ranks: give one per rank");
    node.fixture_host = o.fixture_hosts[static_cast<std::size_t>(s.rank())];
  }
  return read_node_inputs(node);
}

// Rank 0 learns every rank's host name and says which rank runs each host's chain (itself, or
// with --rank-per-gpu the lowest rank of its host name). A rank that never said its name is a
// host of its own, named by its rank.
std::vector<int> agree_on_leaders(mpi::Session& s, const std::string& my_host, bool rank_per_gpu,
                                  std::vector<std::string>& names) {
  const auto gathered = s.gather(0, my_host, kExchange);
  std::string text;
  if (s.rank() == 0) {
    for (const auto& n : gathered) names.push_back(n.value_or(""));
    std::vector<int> leaders(names.size());
    for (std::size_t r = 0; r < leaders.size(); ++r) leaders[r] = static_cast<int>(r);
    if (rank_per_gpu) leaders = host_leaders(names);
    text = json_text(nlohmann::json(leaders), -1);
  }
  const auto told = s.broadcast(0, text, kExchange);
  if (!told)
    throw std::runtime_error("cluster: rank 0 did not say which ranks run a chain within 60 s");
  return parse_own_json(*told, "chain ranks from MPI rank 0").get<std::vector<int>>();
}

// The chain of a host rank: lines to its own file as they happen, and to rank 0.
void run_host_rank(const ClusterOptions& o, mpi::Session& s, const NodeOptions& node,
                   const NodeInputs& in, std::vector<std::string>& own_lines) {
  std::filesystem::create_directories(o.lines_dir);
  const std::string host = node_hostname(in);
  JsonLines file(o.lines_dir + "/" + (host.empty() ? std::string("host") : host) + "-rank" +
                 std::to_string(s.rank()) + ".jsonl");
  NodeHooks hooks;
  hooks.rank = s.rank();
  std::string batch;  // lines not yet sent to rank 0 (JSON lines hold no raw newline)
  const auto send_batch = [&] {
    if (!batch.empty()) s.post(0, std::move(batch));
    batch.clear();
  };
  hooks.emit = [&](const nlohmann::json& line) {
    file.write(line);
    std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (s.rank() == 0) {
      own_lines.push_back(std::move(text));
      return;
    }
    if (!batch.empty() && batch.size() + 1 + text.size() > kBatchBytes) send_batch();
    batch += (batch.empty() ? "" : "\n") + text;
  };
  const std::optional<std::string> stall = stall_step_for(s.rank());
  hooks.after_step = [&stall, &send_batch, &s](const std::string& step) {
    send_batch();  // a finished step's lines leave before the next step starts (or hangs)
    if (stall && *stall == step) stall_forever(s);
  };
  std::ostream null_stream(nullptr);  // other ranks' progress would interleave with rank 0's
  run_node_chain(node, in, hooks, s.rank() == 0 ? std::cerr : null_stream);
  if (s.rank() != 0) {
    send_batch();
    s.post(0, kDone);
  }
}

// Rank 0: every host rank's lines as they arrive, until each has posted kDone or the deadline.
std::vector<HostRun> gather_hosts(mpi::Session& s, const std::vector<int>& leaders,
                                  const std::vector<std::string>& names,
                                  std::vector<std::string> own_lines, Clock::time_point deadline,
                                  bool& all_done) {
  std::vector<std::vector<std::string>> lines(leaders.size());
  std::vector<bool> done(leaders.size(), false);
  lines[0] = std::move(own_lines);
  done[0] = true;
  const auto waiting = [&] {
    for (std::size_t r = 0; r < leaders.size(); ++r) {
      if (leaders[r] == static_cast<int>(r) && !done[r]) return true;
    }
    return false;
  };
  while (waiting()) {
    for (auto& [from, text] : s.drain()) {
      const auto r = static_cast<std::size_t>(from);
      if (text == kDone) {
        done[r] = true;
        continue;
      }
      std::istringstream batch(text);  // newline-joined lines (run_host_rank)
      for (std::string line; std::getline(batch, line);) lines[r].push_back(line);
    }
    if (!waiting() || Clock::now() >= deadline) break;
    std::this_thread::sleep_for(kPollInterval);
  }
  all_done = !waiting();
  std::vector<HostRun> hosts;
  for (std::size_t r = 0; r < leaders.size(); ++r) {
    if (leaders[r] != static_cast<int>(r)) continue;
    HostRun h;
    h.source = "rank " + std::to_string(r);
    h.hostname = names[r];  // a rank that sent nothing is still named
    std::size_t number = 0;
    try {
      for (const auto& line : lines[r]) add_host_line(h, line, ++number);
    } catch (const InputError& e) {  // a rank's bad line: that host has no result, not the fleet
      h = unreadable_host(h.source, e.what());
      h.hostname = names[r];
    }
    hosts.push_back(std::move(h));
  }
  return hosts;
}

}  // namespace

int run_cluster_under_mpi(const ClusterOptions& o) {
  const Clock::time_point started = Clock::now();
  mpi::Session s;
  // Bad input fails on every rank alike; leaving with the exception skips MPI_Finalize (the
  // session's rule), and the launcher ends the job.
  const MergeOptions merge = read_merge_options(o.outputs);
  NodeOptions node = o.node;
  const NodeInputs in = inputs_of_rank(o, s, node);
  std::vector<std::string> names;
  const std::vector<int> leaders = agree_on_leaders(s, node_hostname(in), o.rank_per_gpu, names);
  if (leaders.size() != static_cast<std::size_t>(s.size()))
    throw std::runtime_error("cluster: rank 0 named leaders for " + std::to_string(leaders.size()) +
                             " of " + std::to_string(s.size()) + " ranks");

  std::vector<std::string> own_lines;
  if (leaders[static_cast<std::size_t>(s.rank())] == s.rank())
    run_host_rank(o, s, node, in, own_lines);
  // How long the others wait for rank 0's word: its deadline, then time to merge and write.
  const Seconds until_told = Seconds(o.deadline_s) - (Clock::now() - started) + Seconds(600.0);
  if (s.rank() != 0) {
    // Waiting here, polling, rather than inside MPI_Finalize: when rank 0 has to end a job with
    // a stalled rank, ranks already inside MPI_Finalize make Open MPI 4.1's mpirun crash or hang.
    const auto verdict = s.broadcast(0, "", until_told);
    if (!verdict || *verdict != "finalize") s.abandon();
    return kExitOk;  // the fleet's verdict is rank 0's
  }

  const auto deadline =
      started + std::chrono::duration_cast<Clock::duration>(Seconds(o.deadline_s));
  bool all_done = false;
  const std::vector<HostRun> hosts =
      gather_hosts(s, leaders, names, std::move(own_lines), deadline, all_done);
  const int code = report_fleet(hosts, merge, o.outputs, "cluster", s.size());
  s.broadcast(0, all_done ? "finalize" : "abandon", Seconds(10.0));
  if (!all_done) {
    // A stalled rank would hold MPI_Finalize forever: every output is written, and the
    // launcher ends the job when this process exits without it.
    std::cerr
        << "p2pcheck cluster: a host rank did not finish by the deadline; leaving without MPI_Finalize\n";
    s.abandon();
  }
  return code;
}

}  // namespace p2p::cluster
