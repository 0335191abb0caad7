// `p2pcheck infer` on this host, from the request to the exit code, through the measuring
// pipeline every measuring command shares (session/measurement_pipeline.hpp): the cuInit
// preflight, the live topology and the gate, the sharing check around the groups measured, the
// tables, the results document, the HTML page, JUnit and JSON lines, and the verdict's exit code
// (infer/verdict.hpp). Built without NCCL: one line saying so, exit 3 (`--list` needs none).
#pragma once

#include <string>

#include "infer/plan.hpp"
#include "infer/run_options.hpp"
#include "session/measurement_options.hpp"

namespace p2p::session {

struct InferRequest {
  infer::InferOptions infer;  // the model, the plan's lists and how to measure each group
  MeasurementGateOptions gate;
  double init_timeout_s = kDefaultInitTimeoutS;
  bool exclusive = false;
  std::string json;   // the results document (p2pcheck.infer)
  std::string jsonl;  // JSON lines as the run goes ("-" = stdout)
  std::string junit;
  std::string html;  // the results as one page, written beside the document
};

// Measures `plan` (infer::checked_plan of the request) and returns the exit code; errors that
// end the run early propagate as the exceptions main maps to exit codes.
int run_infer_session(const InferRequest& r, const infer::InferPlan& plan);

}  // namespace p2p::session
