// Run against baseline: which figures of a results document (`p2pcheck bench --json`, and the
// NCCL section of `p2pcheck nccl --json`) moved, and which of them regressed. A pure function of
// two results documents, so a CI job on a GPU host can keep a baseline and fail on a regression,
// and a VFIO VM run can be read against the LXC run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/results.hpp"

namespace p2p::report {

struct CompareOptions {
  double tolerance_pct = 5.0;             // a move smaller than this, either way, is noise
  std::uint64_t min_bytes = 64ull << 20;  // smaller copies are launch-bound and too noisy to judge
  // A run on logical GPUs (several GPUs on one device) measures the tool, not the host's
  // links: judging it against a physical run is refused unless this is set.
  bool allow_logical = false;
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
  std::string baseline_status;       // ok | waived | failed | error | missing
  std::string run_status;
  // regressed | improved | same | lost (ok before, not now) | new | missing | not judged |
  // one side only (new or missing where a side was imported: a peer tool measures only its own
  // figures)
  std::string verdict;
  std::string detail;  // why: the run's waiver or failure text
  // Imported figures: the tool, version and the tool's own name of the figure ("nvbandwidth v0.8
  // device_to_device_memcpy_read_ce"), matched by meaning to p2pcheck's key; "" for p2pcheck's own.
  std::string baseline_source;
  std::string run_source;
};

struct Comparison {
  std::vector<FigureChange> figures;
  int regressions() const;  // regressed + lost
};

// InputError ("baseline: ..." / "run: ...") for a malformed NCCL section, for documents
// written by different subcommands (bench against nccl: nothing could be judged; an imported
// document may stand against either), and for a
// logical-GPU run against a physical one without options.allow_logical.
Comparison compare_runs(const bench::BenchDocument& baseline, const bench::BenchDocument& run,
                        const CompareOptions& options);

// The lines saying which side was imported from which peer tool and version, and how its figures
// were matched by meaning to p2pcheck's ("" when both sides are p2pcheck's own runs).
std::string imported_lines(const bench::BenchDocument& baseline, const bench::BenchDocument& run);

// The lines saying which side ran on logical GPUs ("" when neither did).
std::string logical_gpus_lines(const bench::BenchDocument& baseline,
                               const bench::BenchDocument& run);

std::string format_comparison(const Comparison& c, const std::string& baseline_name,
                              const std::string& run_name, const CompareOptions& options);

}  // namespace p2p::report
