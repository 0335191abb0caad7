#include "harness/google_benchmark.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "common/error.hpp"

namespace {

using namespace p2p::harness;

TEST(NameFilter, FollowsBenchmarkFilterRules) {
  EXPECT_TRUE(NameFilter("").matches("h2d_ce/host->gpu0/4KiB"));
  EXPECT_TRUE(NameFilter("all").matches("x"));
  EXPECT_TRUE(NameFilter(".").matches("x"));
  EXPECT_TRUE(NameFilter("h2d|d2h").matches("d2h_sm/gpu0->host/1GiB"));
  EXPECT_FALSE(NameFilter("^sm_").matches("h2d_sm/host->gpu0/1GiB"));
  EXPECT_FALSE(NameFilter("-latency").matches("latency_host/gpu0->host"));
  EXPECT_TRUE(NameFilter("-latency").matches("h2d_ce/host->gpu0/1GiB"));
  EXPECT_TRUE(NameFilter("^all_reduce/float32/").matches("all_reduce/float32/out_of_place/64MiB"));
  EXPECT_THROW(NameFilter("(("), p2p::InputError);
}

TEST(PassThrough, OnlyBenchmarkFlagsAreForwarded) {
  EXPECT_EQ(
      checked_pass_through("nccl", {"--benchmark_filter=x", "--benchmark_format=json"}).size(), 2u);
  try {
    checked_pass_through("nccl", {"--benchmark_filter=x", "--frobnicate"});
    FAIL() << "an unknown option was forwarded";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "nccl: unknown option `--frobnicate` (Google Benchmark flags are passed as --benchmark_NAME=VALUE)");
  }
}

TEST(PassThrough, AFilterThatSelectsNothingIsBadInput) {
  EXPECT_NO_THROW(require_selection("nccl", 3, "^all_reduce/"));
  try {
    require_selection("nccl", 0, "^allreduce/");
    FAIL() << "an empty selection was accepted";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "nccl: --benchmark_filter `^allreduce/` selects nothing to measure on the GPUs selected");
  }
}

TEST(PassThrough, FormatFlagHandsStdoutToGoogleBenchmark) {
  EXPECT_TRUE(benchmark_owns_stdout({"--benchmark_format=json"}));
  EXPECT_FALSE(benchmark_owns_stdout({"--benchmark_filter=format"}));
  EXPECT_FALSE(benchmark_owns_stdout({}));
}

TEST(PassThrough, FlagGoogleBenchmarkDoesNotKnowIsNamed) {
  try {
    initialize_benchmark("bench", {"--benchmark_no_such_flag=1"});
    FAIL() << "an unknown --benchmark_ flag was accepted";
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "bench: unknown or malformed option `--benchmark_no_such_flag=1`");
  }
}

// Bad flags are refused every time they are handed over, not only the first: a failure leaves
// nothing in effect.
TEST(PassThrough, BadFlagsAreRefusedEveryTime) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    EXPECT_THROW(initialize_benchmark("bench", {"--benchmark_no_such_flag=1"}), p2p::InputError)
        << attempt;
    EXPECT_THROW(initialize_benchmark("bench", {"--benchmark_filter=(("}), p2p::InputError)
        << attempt;
  }
}

// Flags are handed over once per set: the same set again keeps them, another set replaces
// them (with the filter reset, not inherited), and the first set comes back when asked for.
TEST(PassThrough, EachSetOfFlagsTakesEffectWhenHandedOver) {
  initialize_benchmark("nccl", {"--benchmark_filter=^all_reduce/"});
  initialize_benchmark("nccl", {"--benchmark_filter=^all_reduce/"});
  EXPECT_EQ(benchmark::GetBenchmarkFilter(), "^all_reduce/");
  initialize_benchmark("nccl", {"--benchmark_filter=^broadcast/"});
  EXPECT_EQ(benchmark::GetBenchmarkFilter(), "^broadcast/");
  initialize_benchmark("nccl", {});
  EXPECT_EQ(benchmark::GetBenchmarkFilter(), "");
  initialize_benchmark("nccl", {"--benchmark_filter=^all_reduce/"});
  EXPECT_EQ(benchmark::GetBenchmarkFilter(), "^all_reduce/");
}

benchmark::BenchmarkReporter::Run run_named(const std::string& name) {
  benchmark::BenchmarkReporter::Run r;
  r.run_name.function_name = name;
  r.run_type = benchmark::BenchmarkReporter::Run::RT_Iteration;
  return r;
}

TEST(ProgressReporter, CountsRunsAndShowsTheDescriptionOrTheError) {
  std::ostringstream out;
  ProgressReporter p(out, 3, true, [](const benchmark::BenchmarkReporter::Run& r) {
    const benchmark::Counter* c = find_counter(r, "busbw_gbps");
    return c == nullptr ? std::string() : "busbw " + std::to_string(static_cast<int>(c->value));
  });
  auto ok = run_named("all_reduce/float32/in_place/1GiB");
  ok.counters["busbw_gbps"] = 123;
  auto bad = run_named("all_reduce/float32/in_place/2GiB");
  bad.error_occurred = true;
  bad.error_message = "HANG";
  auto aggregate = run_named("x_mean");
  aggregate.run_type = benchmark::BenchmarkReporter::Run::RT_Aggregate;
  p.ReportRuns({ok, aggregate, bad, run_named("plain")});
  p.Finalize();
  EXPECT_EQ(out.str(),
            "\r\033[K[1/3] all_reduce/float32/in_place/1GiB: busbw 123"
            "\r\033[K[2/3] all_reduce/float32/in_place/2GiB: HANG"
            "\r\033[K[3/3] plain\n");
}

// Off a terminal (a CI log): no line per figure, but each failure at once and summaries that
// count them.
TEST(ProgressReporter, OffATerminalSummarisesWithTheFailuresCounted) {
  std::ostringstream out;
  double now_s = 0;
  ProgressReporter p(out, 3, false, {}, "p2pcheck nccl: ", [&now_s] { return now_s; });
  auto bad = run_named("all_reduce/float32/in_place/2GiB");
  bad.error_occurred = true;
  bad.error_message = "HANG";
  p.ReportRuns({bad});
  now_s = 12;
  p.ReportRuns({run_named("plain")});
  now_s = 13;
  p.ReportRuns({run_named("last")});
  p.Finalize();
  EXPECT_EQ(out.str(),
            "p2pcheck nccl: [1/3] all_reduce/float32/in_place/2GiB: HANG\n"
            "p2pcheck nccl: [2/3] 66%, 12s elapsed, about 6s left, 1 failed (last: plain)\n"
            "p2pcheck nccl: [3/3] finished in 13s, 1 failed (last: last)\n");
}

// The runner bench and nccl share: every registered benchmark runs once with the progress
// line, and the registry is empty afterwards, so a second sweep in the process starts clean.
TEST(RunRegistered, ShowsTheProgressLineAndClearsTheRegistry) {
  initialize_benchmark("test", {});
  int runs = 0;
  benchmark::RegisterBenchmark("probe/1KiB",
                               [&runs](benchmark::State& st) {
                                 ++runs;
                                 for (auto _ : st) st.SetIterationTime(1e-3);
                                 st.counters["value"] = 7;
                               })
      ->UseManualTime()
      ->Iterations(2);
  std::ostringstream out;
  const auto describe = [](const benchmark::BenchmarkReporter::Run& r) {
    const benchmark::Counter* c = find_counter(r, "value");
    return c == nullptr ? std::string() : "value " + std::to_string(static_cast<int>(c->value));
  };
  run_registered_benchmarks({}, 1, {&out, true, "p2pcheck test: ", describe});
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(out.str(), "\r\033[Kp2pcheck test: [1/1] probe/1KiB: value 7\n");

  std::ostringstream again;
  run_registered_benchmarks({}, 0, {&again, false, "", describe});
  EXPECT_EQ(runs, 1) << "the registry was not cleared";
  EXPECT_EQ(again.str(), "");

  // No display: the run is silent but still happens.
  benchmark::RegisterBenchmark("probe/2KiB",
                               [&runs](benchmark::State& st) {
                                 ++runs;
                                 for (auto _ : st) st.SetIterationTime(1e-3);
                               })
      ->UseManualTime()
      ->Iterations(1);
  run_registered_benchmarks({}, 1, {});
  EXPECT_EQ(runs, 2);
}

// Samples measured beforehand become the iterations' manual times, the last one repeated when
// Google Benchmark asks for more iterations than there are samples.
TEST(ReplaySamples, EachIterationTakesItsSampleAndTheLastRepeats) {
  initialize_benchmark("test", {});
  benchmark::RegisterBenchmark("replay/1KiB",
                               [](benchmark::State& st) {
                                 replay_samples(st, {1e-3, 3e-3});
                               })
      ->UseManualTime()
      ->Iterations(4);
  std::ostringstream out;
  const auto describe = [](const benchmark::BenchmarkReporter::Run& r) {
    return std::to_string(r.iterations) + " iterations, " +
           std::to_string(static_cast<int>(r.real_accumulated_time * 1e3 + 0.5)) + " ms";
  };
  run_registered_benchmarks({}, 1, {&out, true, "", describe});
  EXPECT_EQ(out.str(), "\r\033[K[1/1] replay/1KiB: 4 iterations, 10 ms\n");
}

}  // namespace
