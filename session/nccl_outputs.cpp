#include "session/nccl_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "bench/measure/run.hpp"
#include "common/byte_size.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_text.hpp"
#include "gpus/cuda_devices.hpp"
#include "harness/google_benchmark.hpp"
#include "nccl/threshold.hpp"
#include "report/check_cases.hpp"
#include "report/nccl_cluster_text.hpp"
#include "report/nccl_text.hpp"
#include "report/nccl_transport_view.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {
namespace {

// The live topology is context, not a precondition: a host hwloc cannot read still gets its
// NCCL figures, with a note in place of the side-by-side view.
std::string transport_beside_topology(const doc::NcclRun& run,
                                      const topo::TopologySnapshot& topology) {
  if (run.transport.nranks < 2) return "";
  try {
    return report::format_transport_vs_topology(run, topology);
  } catch (const std::exception& e) {
    return std::string("#   (no topology beside the transport matrix: ") + e.what() + ")\n";
  }
}

// Every table of the run, as nccl-tests and p2pcheck print them (figures that mean nothing on
// this host are marked in `report` already).
std::string nccl_tables(const doc::NcclResultsSection& report, const TopologyAndGate& tg) {
  std::string t =
      report::format_environment(report.run.environment) + report::format_run_warnings(report.run) +
      report::format_results_table(report.run) + report::format_transport_matrix(report.run) +
      // Across hosts this host's topology describes only some of the ranks.
      (report.run.cluster ? report::format_cluster(report.run)
                          : transport_beside_topology(report.run, tg.snapshot)) +
      report::format_pair_matrix(report.run);
  if (report.p2p_off) {
    t += report::format_transport_matrix(*report.p2p_off) +
         report::format_pair_matrix(*report.p2p_off) +
         report::format_p2p_comparison(report.run, *report.p2p_off);
  }
  return t + report::format_verdicts(report.verdicts);
}

}  // namespace

NcclOutputs outputs_of(const NcclRequest& r) {
  NcclOutputs o;
  o.json = r.json;
  o.junit = r.junit;
  o.min_busbw_gbps = r.min_busbw_gbps;
  o.saturation_bytes = r.saturation_bytes;
  o.skip_gate = r.gate.skip_gate;
  o.expect_gpus = r.gate.expect_gpus;
  return o;
}

doc::BenchDocument nccl_document(const doc::NcclResultsSection& report, const TopologyAndGate& tg,
                                 bool skip_gate, const std::string& started_utc) {
  doc::BenchDocument doc;
  doc.written_by = "nccl";
  doc.started_utc = started_utc;
  bench::BenchContext ctx;
  ctx.topology = tg.snapshot;
  ctx.inventory = gpus::discover_devices();
  const doc::NcclEnvironment& env = report.run.environment;
  for (const auto& d : env.devices) {
    if (d.hostname.empty() || d.hostname == env.hostname)
      ctx.gpus.push_back(d.cuda_device);  // this host's only
  }
  std::sort(ctx.gpus.begin(), ctx.gpus.end());
  ctx.gpus.erase(std::unique(ctx.gpus.begin(), ctx.gpus.end()),
                 ctx.gpus.end());  // ranks may share a GPU
  bench::describe_run_host(doc, ctx, bench::BenchInputs{tg.snapshot, tg.gate, skip_gate});
  doc.nccl = report;
  return doc;
}

JudgedRun judge_nccl(const NcclOutputs& o, const nccl::RunOptions& options,
                     doc::NcclResultsSection report, const TopologyAndGate& tg,
                     const std::string& started, const AfterMeasuring& after) {
  std::optional<std::uint64_t> saturation;
  if (!o.saturation_bytes.empty())
    saturation = p2p::parse_bytes(o.saturation_bytes, "--saturation-bytes");
  if (!std::isnan(o.min_busbw_gbps)) {
    report.min_busbw_gbps = o.min_busbw_gbps;
    report.verdicts = nccl::judge_min_busbw(report.run.results, o.min_busbw_gbps, saturation);
  }
  doc::BenchDocument d = nccl_document(report, tg, o.skip_gate, started);
  d.gpu_selection = doc::gpu_selection_text(options.devices, std::getenv("CUDA_VISIBLE_DEVICES"));
  if (after.interrupt_signal != 0) {
    d.interrupted = interrupt_name(after.interrupt_signal) + " after " +
                    std::to_string(report.run.results.size()) +
                    " results; the rest were not measured";
  }
  d.gpu_sharing = after.sharing;
  d.wall_s = after.used.wall_s;
  d.peak_rss_bytes = after.used.peak_rss_bytes;
  JudgedRun run;
  run.verdict = judge_measured(d, after.acceptance ? *after.acceptance : accept::AcceptancePolicy{},
                               after.expect_gpus, after.interrupt_signal, "nccl");
  run.text = nccl_tables(*d.nccl, tg) + doc::describe_resources(d);
  // With --benchmark_format, Google Benchmark's report owns stdout and the tables go to stderr.
  run.text_to_stderr = harness::benchmark_owns_stdout(options.benchmark_args);
  run.junit = report::document_suites(d, o.json.empty() ? std::string("nccl") : o.json);
  run.summary = run_end_summary(d);
  run.document = d;
  return run;
}

RunEnd report_and_judge(const NcclOutputs& o, const nccl::RunOptions& options,
                        const doc::NcclResultsSection& report, const TopologyAndGate& tg,
                        const std::string& started, const RunClock& clock) {
  AfterMeasuring after;
  after.used = clock.now();
  after.acceptance = &o.acceptance;
  if (o.expect_gpus > 0) after.expect_gpus = o.expect_gpus;
  after.interrupt_signal = interrupt_signal();
  JudgedRun run = judge_nccl(o, options, report, tg, started, after);
  write_judged_run(RunOutputs{o.json, "", o.junit}, run, "nccl", false);
  return RunEnd{doc::exit_code(run.verdict), run.summary};
}

}  // namespace p2p::session
