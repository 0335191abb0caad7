#include "session/nccl_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include "bench/measure/inventory.hpp"
#include "bench/measure/run.hpp"
#include "common/byte_size.hpp"
#include "common/file_io.hpp"
#include "common/interrupt.hpp"
#include "common/json_text.hpp"
#include "harness/google_benchmark.hpp"
#include "nccl/cluster_table.hpp"
#include "nccl/table.hpp"
#include "nccl/topology_view.hpp"
#include "report/check_cases.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {
namespace {

// The live topology is context, not a precondition: a host hwloc cannot read still gets its
// NCCL figures, with a note in place of the side-by-side view.
std::string transport_beside_topology(const nccl::NcclRun& run,
                                      const topo::TopologySnapshot& topology) {
  if (run.transport.nranks < 2) return "";
  try {
    return nccl::format_transport_vs_topology(run, topology);
  } catch (const std::exception& e) {
    return std::string("#   (no topology beside the transport matrix: ") + e.what() + ")\n";
  }
}

}  // namespace

NcclOutputs outputs_of(const NcclRequest& r) {
  NcclOutputs o;
  o.json = r.json;
  o.junit = r.junit;
  o.min_busbw_gbps = r.min_busbw_gbps;
  o.saturation_bytes = r.saturation_bytes;
  o.skip_gate = r.gate.skip_gate;
  return o;
}

bench::BenchDocument nccl_document(const nccl::NcclResultsSection& report,
                                   const TopologyAndGate& tg, bool skip_gate,
                                   const std::string& started_utc) {
  bench::BenchDocument doc;
  doc.written_by = "nccl";
  doc.started_utc = started_utc;
  bench::BenchContext ctx;
  ctx.topology = tg.snapshot;
  ctx.inventory = bench::discover_devices();
  const nccl::NcclEnvironment& env = report.run.environment;
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

RunVerdict report_and_judge(const NcclOutputs& o, const nccl::RunOptions& options,
                            nccl::NcclResultsSection& report, const TopologyAndGate& tg,
                            const std::string& started, const RunClock& clock,
                            SharingCheck* sharing) {
  std::optional<std::uint64_t> saturation;
  if (!o.saturation_bytes.empty())
    saturation = p2p::parse_bytes(o.saturation_bytes, "--saturation-bytes");
  if (!std::isnan(o.min_busbw_gbps)) {
    report.min_busbw_gbps = o.min_busbw_gbps;
    report.verdicts = nccl::judge_min_busbw(report.run.results, o.min_busbw_gbps, saturation);
  }

  // With --benchmark_format, Google Benchmark's report owns stdout and the tables go to stderr.
  std::ostream& tables =
      harness::benchmark_owns_stdout(options.benchmark_args) ? std::cerr : std::cout;
  tables << nccl::format_environment(report.run.environment)
         << nccl::format_run_warnings(report.run) << nccl::format_results_table(report.run)
         << nccl::format_transport_matrix(report.run)
         // Across hosts this host's topology describes only some of the ranks.
         << (report.run.cluster ? nccl::format_cluster(report.run)
                                : transport_beside_topology(report.run, tg.snapshot))
         << nccl::format_pair_matrix(report.run);
  if (report.p2p_off) {
    tables << nccl::format_transport_matrix(*report.p2p_off)
           << nccl::format_pair_matrix(*report.p2p_off)
           << nccl::format_p2p_comparison(report.run, *report.p2p_off);
  }
  tables << nccl::format_verdicts(report.verdicts) << std::flush;
  bench::BenchDocument doc = nccl_document(report, tg, o.skip_gate, started);
  if (const int sig = interrupt_signal()) {
    doc.interrupted = interrupt_name(sig) + " after " + std::to_string(report.run.results.size()) +
                      " results; the rest were not measured";
    tables << "#   INTERRUPTED: " << doc.interrupted << "\n";
  }
  if (sharing) {
    doc.gpu_sharing = sharing->finish();
    tables << bench::sharing_warning(*doc.gpu_sharing);
  }
  const RunResources used = clock.now();
  doc.wall_s = used.wall_s;
  doc.peak_rss_bytes = used.peak_rss_bytes;
  tables << bench::describe_resources(doc) << std::flush;
  if (!o.json.empty()) write_text_file_atomically(o.json, json_text(nlohmann::json(doc)) + "\n");
  if (!o.junit.empty())
    write_junit(o.junit, report::document_suites(doc, o.json.empty() ? "nccl" : o.json));
  return nccl_verdict(report, doc, interrupt_signal());
}

}  // namespace p2p::session
