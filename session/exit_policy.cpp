#include "session/exit_policy.hpp"

#include <string>

#include "common/exit_codes.hpp"
#include "common/interrupt.hpp"
#include "nccl/threshold.hpp"

namespace p2p::session {
namespace {

nlohmann::json gpu_shared(const bench::BenchDocument& doc) {
  return doc.gpu_sharing ? nlohmann::json(doc.gpu_sharing->shared) : nlohmann::json(nullptr);
}

bool any_status(const nccl::NcclRun& run, const std::string& status) {
  for (const auto& r : run.results) {
    if (r.status == status) return true;
  }
  if (run.cluster) {
    for (const auto& p : run.cluster->host_pairs) {
      if (p.status == status) return true;
    }
  }
  return false;
}

}  // namespace

RunVerdict bench_verdict(const bench::BenchDocument& doc, int interrupt_signal) {
  const bench::FigureCounts counts = bench::count_figures(doc);
  RunVerdict v;
  v.summary = {
      {"ok", counts.ok},         {"failed", counts.failed},        {"waived", counts.waived},
      {"errors", counts.errors}, {"interrupted", doc.interrupted}, {"gpu_shared", gpu_shared(doc)}};
  v.exit_code =
      interrupt_signal != 0 ? interrupted_exit_code(interrupt_signal) : bench::exit_code_for(doc);
  return v;
}

RunVerdict nccl_verdict(const nccl::NcclResultsSection& report, const bench::BenchDocument& doc,
                        int interrupt_signal) {
  // Ranks as processes: a rank that hung (or was killed for silence) is a hang; one that died
  // while the others did not hang is a failure of the run itself (kExitRuntime), not a verdict.
  const auto& off = report.p2p_off;
  const bool hang = any_status(report.run, "hang") || nccl::any_rank_hung(report.run) ||
                    (off && (any_status(*off, "hang") || nccl::any_rank_hung(*off)));
  const bool died = nccl::any_rank_died(report.run) || (off && nccl::any_rank_died(*off));
  const bool failed = any_status(report.run, "wrong") || any_status(report.run, "error") ||
                      (off && (any_status(*off, "wrong") || any_status(*off, "error"))) ||
                      nccl::any_failed(report.verdicts);
  RunVerdict v;
  v.summary = {{"results", report.run.results.size()},
               {"interrupted", doc.interrupted},
               {"gpu_shared", gpu_shared(doc)}};
  if (interrupt_signal != 0) {
    v.exit_code = interrupted_exit_code(interrupt_signal);
  } else if (hang) {
    v.exit_code = kExitHang;
  } else if (died) {
    v.exit_code = kExitRuntime;
  } else {
    v.exit_code = failed ? kExitFailed : kExitOk;
  }
  return v;
}

}  // namespace p2p::session
