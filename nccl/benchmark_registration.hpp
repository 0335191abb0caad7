// Registers the planned measurements of `p2pcheck nccl` as Google Benchmark benchmarks, as bench
// does for its cases: each planned measurement (operation, type, placement, size, and for
// sendrecv_pairs the pair) is one registered benchmark with manual time. One benchmark
// iteration is one timed group of operations, its time that group's time per operation;
// counters carry the reported (median) algbw_gbps, busbw_gbps and time_us and the
// wrong_elements of the verification run, and bytes_per_second is algbw. So --benchmark_filter
// selects operations, and --benchmark_format=json prints Google Benchmark's own report beside
// p2pcheck's document.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "document/nccl_run.hpp"
#include "nccl/plan.hpp"

namespace p2p::nccl {

// "all_reduce/float32/out_of_place/64MiB", "sendrecv_pairs/bfloat16/out_of_place/0->1/8B". Pure.
std::string benchmark_name(const PlannedCase& c);

// What one measurement hands back to its benchmark: the record and the per-operation time of
// every timed group (empty when nothing was timed: hang, error).
struct MeasuredCase {
  doc::CollectiveResult result;
  std::vector<double> sample_us;
  std::string not_measured;  // why nothing was measured (a stop was asked for); "" = measured
};

using MeasureCaseFn = std::function<MeasuredCase(const PlannedCase&)>;

// Registers one benchmark per case of `plan` (already filtered), each running `measure_one`
// once and reporting it with `timing_groups` iterations. A result that is not "ok" ends its
// benchmark with SkipWithError(<status>: <detail>), so it shows as an error in every format.
void register_nccl_benchmarks(const std::vector<PlannedCase>& plan, int timing_groups,
                              MeasureCaseFn measure_one);

// The progress line's figure: "algbw 123.45 GB/s, busbw 246.90 GB/s, 257.6 us".
std::string describe_nccl_run(const benchmark::BenchmarkReporter::Run& run);

}  // namespace p2p::nccl
