// Google Benchmark as the harness of every measuring subcommand (bench, nccl): the same flag
// handling, name filter and progress line, so --benchmark_filter, --benchmark_repetitions and
// --benchmark_format behave alike wherever p2pcheck measures.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <regex>
#include <string>
#include <vector>

#include "common/progress_meter.hpp"

namespace p2p::harness {

// What --help says about the Google Benchmark flags bench and nccl pass through.
inline constexpr const char* kPassThroughHelp =
    "Google Benchmark flags pass through: --benchmark_filter=REGEX (case names as in the progress line), "
    "--benchmark_repetitions=N, --benchmark_format=json|csv (its report on stdout, tables on stderr).";

// Extra command-line arguments a subcommand forwards: each must be --benchmark_NAME[=VALUE].
// InputError "<command>: unknown option `X` (...)" otherwise.
std::vector<std::string> checked_pass_through(const std::string& command,
                                              const std::vector<std::string>& extras);

// Hands the flags to Google Benchmark, which parses and removes its own; whatever is left over
// is an InputError naming it ("<command>: unknown or malformed option `X`"), as is a
// --benchmark_filter that is not a valid regular expression. The one place Google Benchmark is
// initialised: flags already in effect (the same `args` as the last success) are not handed
// over again, so each process initialises it once per set of flags.
void initialize_benchmark(const std::string& command, const std::vector<std::string>& args);

// InputError "<command>: --benchmark_filter `F` selects nothing to measure on the GPUs
// selected" when a filter left nothing to measure (rather than an empty run that looks like a
// pass). `selected` counts what the filter let through, measured or waived.
void require_selection(const std::string& command, std::size_t selected, const std::string& filter);

// True when --benchmark_format was given: Google Benchmark then writes its report to stdout,
// and the subcommand's own tables must go to stderr.
bool benchmark_owns_stdout(const std::vector<std::string>& args);

// Google Benchmark's --benchmark_filter semantics, so figures p2pcheck decides not to run
// (waived, filtered) follow the same filter as those it runs: "" or "all" matches everything,
// a leading '-' negates, otherwise an extended regex searched anywhere in the name.
// InputError on an invalid regex.
class NameFilter {
 public:
  explicit NameFilter(const std::string& spec);
  bool matches(const std::string& name) const;

 private:
  bool all_ = false;
  bool negate_ = false;
  std::regex re_;
};

// Progress of a sweep on `out`, one item per finished benchmark ("<prefix>[done/total] name:
// <describe(run)>" or the error): rewritten in place on a terminal, summaries with the time
// elapsed and left otherwise (common/progress_meter.hpp).
class ProgressReporter : public benchmark::BenchmarkReporter {
 public:
  using Describe = std::function<std::string(const Run&)>;
  ProgressReporter(std::ostream& out, std::size_t total, bool terminal, Describe describe,
                   std::string prefix = "", ProgressMeter::Clock clock = {});
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  ProgressMeter meter_;
  std::size_t done_ = 0;
  Describe describe_;
};

// Where a run's progress line goes: nowhere when `out` is null (a silent run).
struct ProgressDisplay {
  std::ostream* out = nullptr;
  bool terminal = false;  // rewrite one line in place
  std::string prefix;     // before "[done/total]"
  ProgressReporter::Describe describe;
};

// Runs every registered benchmark for `total` of them, then clears the registry: with Google
// Benchmark's own report when --benchmark_format is among `args` (it owns stdout then), else
// with the progress line of `display`.
void run_registered_benchmarks(const std::vector<std::string>& args, std::size_t total,
                               const ProgressDisplay& display);

// Replays samples measured beforehand (with CUDA events, outside Google Benchmark's loop) as the
// benchmark's iterations under manual time: iteration i takes seconds[i], and iterations past
// the last sample repeat it (--benchmark_repetitions or a minimum time can ask for more).
// Nothing is replayed when `seconds` is empty; the caller reports that run as skipped.
void replay_samples(benchmark::State& state, const std::vector<double>& seconds);

// A counter of a finished run, or nullptr when it has none of that name.
const benchmark::Counter* find_counter(const benchmark::BenchmarkReporter::Run& run,
                                       const std::string& name);

}  // namespace p2p::harness
