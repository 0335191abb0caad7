// Every measuring command (bench, nccl on one host, infer) composed once, in one order:
//
//   outputs opened (a bad --jsonl path fails before any GPU work) -> policy and golden files read
//   -> the driver answers cuInit within its deadline -> a usable GPU -> the live topology and the
//   gate (a block writes its JUnit and ends the run) -> the sharing check starts -> SIGINT/SIGTERM
//   finish the figure in hand -> the command measures -> the sharing check ends -> the command's
//   document is judged into its one verdict -> tables and the verdict printed, --json and
//   --junit written -> run_end, and the verdict's exit code.
//
// A command supplies only what is its own: which GPUs it measures, the measurement, and how its
// document is judged and shown (Measurement). Builds with CUDA only.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "acceptance/policy.hpp"
#include "common/run_resources.hpp"
#include "document/verdict.hpp"
#include "report/check_cases.hpp"
#include "session/gate_verdict.hpp"
#include "session/measurement_options.hpp"
#include "session/run_log.hpp"

namespace p2p::session {

// The machine outputs every measuring command offers, "" = not asked for.
struct RunOutputs {
  std::string json;   // the results document
  std::string jsonl;  // JSON lines as the run goes ("-" = stdout)
  std::string junit;  // JUnit XML
};

struct MeasurementRequest {
  std::string command;  // bench | nccl | infer
  MeasurementGateOptions gate;
  double init_timeout_s = kDefaultInitTimeoutS;
  bool exclusive = false;  // --exclusive: refuse to start on a GPU another process uses
  RunOutputs outputs;
  std::vector<std::string> benchmark_args;  // --benchmark_*: may own stdout
};

// What the pipeline knows when the measurement is over, for the command's judgement.
struct AfterMeasuring {
  std::optional<doc::SharingRecord> sharing;  // null where no sharing check ran (MPI ranks)
  RunResources used;
  const accept::AcceptancePolicy* acceptance = nullptr;  // --policy's thresholds
  std::optional<int> expect_gpus;                        // --expect-gpus
  int interrupt_signal = 0;                              // 0: the run reached its end
};

// A measured, judged run: what each output shows.
struct JudgedRun {
  nlohmann::json document;  // --json
  doc::RunVerdict verdict;
  std::string text;             // the tables, printed before the verdict block
  bool text_to_stderr = false;  // Google Benchmark's report or --jsonl owns stdout
  std::vector<report::CheckSuite> junit;
  nlohmann::json summary;  // the run_end line's fields
};

class Measurement {
 public:
  virtual ~Measurement() = default;
  // PCI bus ids of the GPUs this run will measure (the sharing check locks and watches them).
  virtual std::vector<std::string> bus_ids_to_measure() = 0;
  // The measurement itself; after SIGINT/SIGTERM it stops at the next figure and keeps what it
  // measured. `log` takes the lines the command writes as it goes.
  virtual void measure(const TopologyAndGate& tg, RunLog& log) = 0;
  virtual JudgedRun judge(const AfterMeasuring& after) = 0;
};

// The end every measuring run shares, also where the rest of the pipeline is not this
// process's (rank 0 of an MPI run, the P2P-off half): the tables and the verdict block on stdout
// (stderr where `stdout_taken` or run.text_to_stderr), --json and --junit written.
void write_judged_run(const RunOutputs& outputs, JudgedRun& run, const std::string& command,
                      bool stdout_taken);

// Runs the pipeline above; errors that end the run early propagate as the exceptions main maps
// to exit codes (InputError 2, NoGpuError 3, HangError 5, BusyError 6).
int run_measurement(const MeasurementRequest& r, Measurement& m);

}  // namespace p2p::session
