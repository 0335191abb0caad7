// GPU tests (label gpu) of ranks as processes, through the built `p2pcheck nccl` as a user
// runs it: several rank processes on ONE GPU (each its own NCCL host, so NCCL connects them
// over its network transport) run every collective and the whole per-pair matrix, verified;
// and a rank process killed mid-sweep ends the run within the timeout, named, with the figures
// measured before it kept. Skipped, with the reason, where NCCL or a GPU is missing.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "document/bench_document.hpp"
#include "nccl/run/nccl_api.hpp"
#include "nccl/run/tests/nccl_gpu_or_skip.hpp"

namespace p2p::nccl {
namespace {

using Clock = std::chrono::steady_clock;

// Runs p2pcheck with `args` and reads the report it wrote.
struct Ran {
  testing::CliResult cli;
  std::optional<doc::NcclResultsSection> report;
  double wall_s = 0.0;
};

class RankProcessGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = p2p::testing::nccl_gpu_unusable()) GTEST_SKIP() << *why;
  }

  Ran run(const std::string& args, const std::string& env = "") {
    const std::string json = dir_ + "/run.json";
    std::filesystem::remove(json);
    Ran r;
    const auto start = Clock::now();
    r.cli = testing::run_captured(env + " '" + P2PCHECK_EXE + "' nccl --skip-gate " + args +
                                  " --json " + json);
    r.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
    if (std::filesystem::exists(json)) r.report = doc::read_nccl_section(json);
    return r;
  }

  p2p::TempDir tmp_{"p2p_nccl_rank_process_gpu_test"};
  std::string dir_{tmp_.path()};
};

// Every collective at small sizes plus every ordered pair; one GPU, `n` rank processes.
const char* kSmallSweep =
    "--devices 0 --rank-processes --min-bytes 1K --max-bytes 64K --step-factor 8 "
    "--iters 3 --warmup 1 --samples 3 --timeout 60";

class RankProcessesOnOneGpu : public RankProcessGpu, public ::testing::WithParamInterface<int> {};

TEST_P(RankProcessesOnOneGpu, EveryCollectiveAndPairIsVerifiedOverTheNetworkTransport) {
  const int n = GetParam();
  const Ran r = run(std::string(kSmallSweep) + " --ranks " + std::to_string(n));
  ASSERT_EQ(r.cli.exit_code, 0) << r.cli.err;
  ASSERT_TRUE(r.report.has_value()) << r.cli.err;
  const doc::NcclRun& run = r.report->run;
  EXPECT_TRUE(run.environment.rank_processes);
  ASSERT_EQ(run.environment.devices.size(), static_cast<std::size_t>(n));
  for (const auto& d : run.environment.devices) {
    EXPECT_EQ(d.cuda_device, 0);
    EXPECT_TRUE(d.pid.has_value()) << d.rank;
    EXPECT_EQ(d.host_id, "p2pcheck-host-" + std::to_string(d.rank));
  }
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  std::set<std::string> collectives;
  std::set<std::pair<int, int>> pairs;
  for (const auto& c : run.results) {
    const std::string what =
        c.collective + " " + c.dtype + " " + std::to_string(c.size_bytes) + " B" +
        (c.in_place ? " in place" : "") +
        (c.src_rank ? " " + std::to_string(*c.src_rank) + "->" + std::to_string(*c.dst_rank) : "");
    EXPECT_STREQ(doc::to_string(c.status), "ok") << what << ": " << c.detail;
    EXPECT_EQ(c.nranks, n) << what;
    EXPECT_EQ(c.wrong_elements.value_or(1), 0u) << what;
    EXPECT_GT(c.busbw_gbps.value_or(0.0), 0.0) << what;
    collectives.insert(c.collective);
    if (c.src_rank) pairs.insert({*c.src_rank, *c.dst_rank});
  }
  EXPECT_EQ(collectives.size(), 7u);
  EXPECT_EQ(pairs.size(), static_cast<std::size_t>(n * n));  // the diagonal included
  ASSERT_EQ(run.transport.nranks, n);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      const auto& cell = run.transport.cell(a, b);
      bool net = false;
      for (const auto& t : cell.transports) net |= t.rfind("NET/", 0) == 0;
      EXPECT_TRUE(net) << a << " -> " << b << ": " << doc::cell_label(cell);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, RankProcessesOnOneGpu, ::testing::Values(2, 8));

TEST_F(RankProcessGpu, AKilledRankEndsTheRunWithinTheTimeoutNamedAndKeepsWhatWasMeasured) {
  // 4 ranks, all_reduce at 4 sizes x 2 placements: 8 cases. Rank 2 kills itself after 3.
  const std::string sweep =
      "--devices 0 --ranks 4 --collectives all_reduce --min-bytes 1K --max-bytes 8K "
      "--iters 3 --warmup 1 --samples 3 --timeout 5";
  const Ran baseline = run(sweep);
  ASSERT_EQ(baseline.cli.exit_code, 0) << baseline.cli.err;
  ASSERT_EQ(baseline.report->run.results.size(), 8u);

  const Ran r = run(sweep, "P2P_TEST_KILL_RANK=2:3");
  // The parent sees the death and has the others abort their communicators at once (SIGTERM,
  // ncclCommAbort in each), or NCCL notices the closed connection first and they fail: a dead
  // rank, not a hang (exit 4).
  EXPECT_EQ(r.cli.exit_code, 4) << r.cli.err;
  EXPECT_LT(r.wall_s, baseline.wall_s + 5.0 + 10.0) << r.cli.err;
  ASSERT_TRUE(r.report.has_value()) << r.cli.err;
  const doc::NcclRun& run = r.report->run;
  ASSERT_GE(run.results.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_STREQ(doc::to_string(run.results[i].status), "ok") << i << ": " << run.results[i].detail;
    EXPECT_GT(run.results[i].time_us.value_or(0.0), 0.0) << i;
    EXPECT_EQ(run.results[i].wrong_elements.value_or(1), 0u) << i;
  }
  ASSERT_EQ(run.rank_process_ends.size(), 4u);
  const doc::RankProcessEnd& dead = run.rank_process_ends[2];
  EXPECT_STREQ(doc::to_string(dead.ended), "died");
  EXPECT_EQ(dead.signal, std::optional<int>(9));
  EXPECT_EQ(dead.last_case,
            "all_reduce/float32/out_of_place/2KiB");  // plan order: size, then placement
  for (int survivor : {0, 1, 3}) {
    const doc::RankEnd ended = run.rank_process_ends[static_cast<std::size_t>(survivor)].ended;
    EXPECT_TRUE(ended == doc::RankEnd::kStopped || ended == doc::RankEnd::kError)
        << survivor << ": " << doc::to_string(ended);
  }
  bool named = false;
  for (const auto& w : run.warnings)
    named |= w.rfind("rank 2 (pid " + std::to_string(dead.pid) + ") killed by signal 9", 0) == 0;
  EXPECT_TRUE(named) << r.cli.err;
  // What happened heads the results table, on standard output; the verdict, last, names the
  // dead rank first as the run's error.
  EXPECT_NE(r.cli.out.find("# note: rank 2 (pid"), std::string::npos) << r.cli.out;
  EXPECT_NE(r.cli.out.find("p2pcheck nccl: ERROR — rank_process rank2: died"), std::string::npos)
      << r.cli.out;
}

// A rank that stops answering inside a case (P2P_TEST_STALL_RANK): the others miss their
// deadline in that case and abort their communicators, the stalled one is stopped too, and the
// run ends as a hang (exit 5) soon after the timeout, with the cases before it kept.
TEST_F(RankProcessGpu, AStalledRankIsAHangEveryProcessAbortsAndTheRunEnds) {
  const std::string sweep =
      "--devices 0 --ranks 4 --collectives all_reduce --min-bytes 1K --max-bytes 8K "
      "--iters 3 --warmup 1 --samples 3 --timeout 5";
  const Ran baseline = run(sweep);
  ASSERT_EQ(baseline.cli.exit_code, 0) << baseline.cli.err;
  const Ran r = run(sweep, "P2P_TEST_STALL_RANK=1:3");
  EXPECT_EQ(r.cli.exit_code, 5) << r.cli.err;
  EXPECT_LT(r.wall_s, baseline.wall_s + 5.0 + 10.0) << r.cli.err;
  ASSERT_TRUE(r.report.has_value()) << r.cli.err;
  const doc::NcclRun& run = r.report->run;
  ASSERT_GE(run.results.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_STREQ(doc::to_string(run.results[i].status), "ok") << i << ": " << run.results[i].detail;
  EXPECT_STREQ(doc::to_string(run.results[3].status), "hang") << run.results[3].detail;
  ASSERT_EQ(run.rank_process_ends.size(), 4u);
  for (const auto& e : run.rank_process_ends) {
    // A peer's abort can reach a rank as an NCCL error before its own deadline passes.
    EXPECT_TRUE(e.ended == doc::RankEnd::kHang || e.ended == doc::RankEnd::kStopped ||
                e.ended == doc::RankEnd::kError)
        << e.rank << ": " << doc::to_string(e.ended) << " " << e.detail;
  }
}

}  // namespace
}  // namespace p2p::nccl
