// What every `p2pcheck nccl` process that reports writes after its sweep (one host, rank 0 of
// an MPI job, the P2P-off half): --min-busbw verdicts, the tables, the results document, JUnit,
// and the run's verdict (session/run_verdict.hpp). NCCL builds only.
#pragma once

#include <limits>
#include <string>

#include "acceptance/policy.hpp"
#include "common/run_resources.hpp"
#include "document/bench_document.hpp"
#include "nccl/run/runner.hpp"
#include "session/gate_verdict.hpp"
#include "session/gpu_sharing_check.hpp"
#include "session/measurement_pipeline.hpp"
#include "session/nccl_request.hpp"
#include "session/run_verdict.hpp"

namespace p2p::session {

// The outputs and judgements asked for on the command line.
struct NcclOutputs {
  std::string json;                                                  // results document, "" = none
  std::string junit;                                                 // JUnit XML, "" = none
  double min_busbw_gbps = std::numeric_limits<double>::quiet_NaN();  // NaN = not judged
  std::string saturation_bytes;  // judge --min-busbw from this size on; "" = found per series
  bool skip_gate = false;
  accept::AcceptancePolicy acceptance;  // --policy's thresholds (defaults without one)
  int expect_gpus = 0;                  // --expect-gpus; 0 = not given
};
NcclOutputs outputs_of(const NcclRequest& r);

// The results document bench writes, with the sweep in its `nccl` section: same host,
// versions, topology, gate and GPUs, so one reader serves both.
doc::BenchDocument nccl_document(const doc::NcclResultsSection& report, const TopologyAndGate& tg,
                                 bool skip_gate, const std::string& started_utc);

// After the sweep: --min-busbw verdicts, the results document (marked interrupted after a
// signal, and shared when the sharing check saw another user of the GPUs) judged into its one
// verdict, and the tables. The pipeline (session/measurement_pipeline.hpp) writes it.
JudgedRun judge_nccl(const NcclOutputs& o, const nccl::RunOptions& options,
                     doc::NcclResultsSection report, const TopologyAndGate& tg,
                     const std::string& started_utc, const AfterMeasuring& after);

// The same for a process whose run is outside the pipeline (rank 0 of an MPI run, the P2P-off
// half): judged as above with no sharing check, written, and how the run ends.
RunEnd report_and_judge(const NcclOutputs& o, const nccl::RunOptions& options,
                        const doc::NcclResultsSection& report, const TopologyAndGate& tg,
                        const std::string& started_utc, const RunClock& clock);

}  // namespace p2p::session
