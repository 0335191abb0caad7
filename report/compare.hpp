// Run against baseline: which figures of a results document (`p2pcheck bench --json`, and the
// NCCL section of `p2pcheck nccl --json`) moved, which of them regressed, and whether the run
// may stand in for the baseline at all. A pure function of two results documents, so a CI job
// on a GPU host can keep a baseline and fail on a regression, and a VFIO VM run can be read
// against the LXC run.
//
// The comparison is a gate: it ends in one verdict (document/verdict.hpp). A figure that
// regressed, was lost or is missing fails it; so does a run that was interrupted or shared, or
// that carries a caveat (logical GPUs, unverified or waived figures, an overridden gate) its
// baseline does not — unless the user allowed it, saying why.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "document/outcome.hpp"
#include "document/verdict.hpp"

namespace p2p::report {

// A move smaller than the tolerance, either way, is noise. Between two runs of one tool 5%;
// between different tools (p2pcheck against nvbandwidth, nccl-tests, p2pBandwidthLatencyTest,
// or two peer tools) 10%, since each times something slightly different (its own copy loop,
// launch and synchronisation; p2pcheck and nvbandwidth agreed within 1.3% on one H200, see
// docs/bench.md, but a host of other generation or driver need not). Either side stated.
constexpr double kToleranceOneToolPct = 5.0;
constexpr double kToleranceAcrossToolsPct = 10.0;

struct CompareOptions {
  std::optional<double> tolerance_pct;    // --tolerance-pct; nullopt: the default for the pair
  std::uint64_t min_bytes = 64ull << 20;  // smaller copies are launch-bound and too noisy to judge
  // A run on logical GPUs (several GPUs on one device) measures the tool, not the host's
  // links: judging it against a physical run is refused unless this is set.
  bool allow_logical = false;
  // --allow-missing REASON: figures of the baseline the run lacks pass as skipped, with this
  // reason; "" = each one fails.
  std::string allow_missing;
  // --allow-caveat KIND: a caveat of the run that does not fail the comparison (still shown).
  std::set<doc::CaveatKind> allowed_caveats;
  // --common-sizes: where the runs measured different sizes, only the sizes both have are
  // compared (the others are one side's only, not missing or new).
  bool common_sizes = false;
};

// One figure present in either document. Keyed by case, endpoints (gpuN/host), part and size;
// NCCL figures by operation, type, placement, rank count, pair and size.
struct FigureChange {
  std::string key;   // "h2d_ce host->gpu0 512MiB", "latency_host gpu0->host", "nccl all_reduce
                     // float32 in_place 8r 1GiB busbw"
  std::string unit;  // "GB/s" | "ns"
  std::optional<double> baseline;  // median; null when absent or not measured
  std::optional<double> run;
  std::optional<double> change_pct;  // (run - baseline) / baseline * 100
  std::string baseline_status;       // the document's word (ok, waived, failed, ...) or missing
  std::string run_status;
  bool baseline_ok = false;  // the figure's status is ok (a figure without a number then shows "-")
  bool run_ok = false;
  doc::Change change = doc::Change::kSame;
  doc::Outcome outcome = doc::Outcome::kPass;  // doc::outcome_of(change, missing allowed)
  std::string detail;  // why: the run's waiver or failure text, or what was true of the run
  // Imported figures: the tool, version and the tool's own name of the figure ("nvbandwidth v0.8
  // device_to_device_memcpy_read_ce"), matched by meaning to p2pcheck's key; "" for p2pcheck's own.
  std::string baseline_source;
  std::string run_source;
  std::uint64_t size_bytes = 0;  // the copy or message size; 0 for latencies
};

struct Comparison {
  std::vector<FigureChange> figures;
  double tolerance_pct = kToleranceOneToolPct;  // the one used: given, or the pair's default
  // Why a default other than one tool's was taken: "the default between different tools:
  // nvbandwidth v0.8 against p2pcheck"; "" otherwise.
  std::string tolerance_why;
  // The sizes each run measured (ascending): where they differ, the text says so in one line.
  std::vector<std::uint64_t> baseline_sizes, run_sizes;
  std::size_t common_sizes = 0;  // sizes both measured
  // The comparison's one verdict: the run's caveats first, then its own verdict where it was
  // judged when measured, then every figure's change.
  doc::RunVerdict verdict;
  // Each side's own verdict as the comparison read it (stored, or judged on reading), so that
  // every view of the comparison shows the same ones without judging again.
  doc::RunVerdict baseline_verdict, run_verdict;
  int count(doc::Change c) const;
  int regressions() const;  // regressed + lost
};

// The tools a document's figures come from: "p2pcheck", or the peer tools it was imported from
// ("nvbandwidth v0.8", "nccl-tests 2.19.6", comma-separated).
std::string tools_of(const doc::BenchDocument& d);

// InputError ("baseline: ..." / "run: ...") for documents written by different subcommands
// (bench against nccl: nothing could be judged; an imported document may stand against
// either), and for a logical-GPU run against a physical one without options.allow_logical.
Comparison compare_runs(const doc::BenchDocument& baseline, const doc::BenchDocument& run,
                        const CompareOptions& options);

// The lines saying which side was imported from which peer tool and version, and how its figures
// were matched by meaning to p2pcheck's ("" when both sides are p2pcheck's own runs).
std::string imported_lines(const doc::BenchDocument& baseline, const doc::BenchDocument& run);

// The lines saying which side ran on logical GPUs ("" when neither did).
std::string logical_gpus_lines(const doc::BenchDocument& baseline, const doc::BenchDocument& run);

// The caveats of both sides, for the top of the output: which fail the comparison and why.
std::string caveat_lines(const Comparison& c);

// The table of what moved, the count of every change, and the verdict block last.
std::string format_comparison(const Comparison& c, const std::string& baseline_name,
                              const std::string& run_name, const CompareOptions& options);

// "745 figures: 0 regressed, 0 lost, 306 missing, ..." (every change, the zeros too).
std::string change_counts(const Comparison& c);

}  // namespace p2p::report
