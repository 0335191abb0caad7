#include "harness/google_benchmark.hpp"

#include <algorithm>
#include <optional>
#include <ostream>

#include "common/error.hpp"

namespace p2p::harness {
namespace {

// Reports nothing: for runs whose results are collected elsewhere (tests, child processes).
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

std::vector<std::string> checked_pass_through(const std::string& command,
                                              const std::vector<std::string>& extras) {
  for (const auto& a : extras) {
    if (a.rfind("--benchmark_", 0) != 0) {
      throw InputError(command + ": unknown option `" + a +
                       "` (Google Benchmark flags are passed as --benchmark_NAME=VALUE)");
    }
  }
  return extras;
}

void initialize_benchmark(const std::string& command, const std::vector<std::string>& args) {
  // Google Benchmark keeps its flags in globals, so what it was last handed is process state
  // too. A measuring run hands its flags over once, before any GPU work (session/), and the
  // measuring code asks again with the same flags for its direct callers (node's bench step,
  // rank and MPI processes, tests): those find them in effect and Google Benchmark is not
  // initialised a second time. Recorded only after a success, so bad flags fail every time.
  static std::optional<std::vector<std::string>> in_effect;
  if (in_effect && *in_effect == args) return;
  in_effect.reset();
  // Reset the flags p2pcheck relies on, so a second run in one process with other flags
  // (tests) does not inherit the first one's.
  std::vector<std::string> storage{"p2pcheck " + command,
                                   "--benchmark_filter=", "--benchmark_format=console"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(storage.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) throw InputError(command + ": unknown or malformed option `" + argv[1] + "`");
  NameFilter checked(
      benchmark::GetBenchmarkFilter());  // an invalid regex is bad input now, not mid-run
  in_effect = args;
}

void require_selection(const std::string& command, std::size_t selected,
                       const std::string& filter) {
  if (selected > 0) return;
  throw InputError(command + ": --benchmark_filter `" + filter +
                   "` selects nothing to measure on the GPUs selected");
}

bool benchmark_owns_stdout(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a.rfind("--benchmark_format=", 0) == 0) return true;
  }
  return false;
}

NameFilter::NameFilter(const std::string& spec) {
  std::string pattern = spec;
  if (pattern.empty() || pattern == "all") {
    all_ = true;
    return;
  }
  if (pattern.front() == '-') {
    negate_ = true;
    pattern.erase(0, 1);
  }
  try {
    re_ = std::regex(pattern, std::regex::extended);
  } catch (const std::regex_error&) {
    throw InputError("--benchmark_filter: `" + spec + "` is not a valid regular expression");
  }
}

bool NameFilter::matches(const std::string& name) const {
  if (all_) return true;
  return std::regex_search(name, re_) != negate_;
}

ProgressReporter::ProgressReporter(std::ostream& out, std::size_t total, bool terminal,
                                   Describe describe, std::string prefix,
                                   ProgressMeter::Clock clock)
    : meter_(out, std::move(prefix), total, terminal, std::move(clock)),
      describe_(std::move(describe)) {}

bool ProgressReporter::ReportContext(const Context&) { return true; }

void ProgressReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Iteration) continue;
    ++done_;
    // The registered name, without Google Benchmark's "/iterations:N/manual_time" suffixes.
    std::string item = run.run_name.function_name;
    if (run.error_occurred) {
      item += ": " + run.error_message;
    } else if (describe_) {
      const std::string what = describe_(run);
      if (!what.empty()) item += ": " + what;
    }
    meter_.update(done_, item, run.error_occurred);
  }
}

void ProgressReporter::Finalize() { meter_.finish(); }

void run_registered_benchmarks(const std::vector<std::string>& args, std::size_t total,
                               const ProgressDisplay& display) {
  if (benchmark_owns_stdout(args)) {
    benchmark::RunSpecifiedBenchmarks();
  } else if (display.out != nullptr) {
    ProgressReporter reporter(*display.out, total, display.terminal, display.describe,
                              display.prefix);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    SilentReporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::ClearRegisteredBenchmarks();
}

const benchmark::Counter* find_counter(const benchmark::BenchmarkReporter::Run& run,
                                       const std::string& name) {
  const auto it = run.counters.find(name);
  return it == run.counters.end() ? nullptr : &it->second;
}

void replay_samples(benchmark::State& state, const std::vector<double>& seconds) {
  if (seconds.empty()) return;
  std::size_t i = 0;
  for (auto _ : state) {
    state.SetIterationTime(seconds[std::min(i, seconds.size() - 1)]);
    ++i;
  }
}

}  // namespace p2p::harness
