// Which GPU a verdict's reasons point at. A host with one GPU in a slot trained at x8 fails dozens
// of figures, every one naming that GPU and a different partner; listed one by one they bury the
// cause. Counting the GPUs the reasons name brings it out: "suspect: gpu5 in 46 of 46 reasons".
// Pure: the reasons' subjects and messages are all it reads.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/verdict.hpp"

namespace p2p::doc {

struct Suspect {
  std::string gpu;   // "gpu5", as the figures name their endpoints
  int named_in = 0;  // the reasons (failures and warnings) that name it
  int reasons = 0;   // all the reasons
  // The first reason held against the suspect's own link to the host (a copy between it and
  // the host short of the link's ceiling or floor), up to its first ';': "27.6 GB/s is 44% of
  // PCIe gen5 x16 (63.0 GB/s one way)"; against a baseline, the figure and its move:
  // "h2d_ce host->gpu5 256MiB regressed -56.2%". "" when no such reason: the cause is a pair's.
  std::string host_link;
};

// The GPU named by at least half of the reasons, and by more of them than any other GPU; nullopt
// when the reasons are fewer than two or spread over several GPUs (no single suspect).
std::optional<Suspect> suspect_of(const RunVerdict& v);

// "suspect: gpu5 in 46 of 46 reasons; its host link: 27.6 GB/s is 44% of PCIe gen5 x16 (...):
// check the width and speed it trained at (p2pcheck doctor: pcie.link), then reseat it": the
// line that heads the verdict's reasons, with the next step its evidence points to.
std::string suspect_line(const Suspect& s);

// One GPU's own outcome, as dcgmi diag gives a pass or fail per GPU: the checks whose subject
// names it, and of those the failures and warnings it is held to. A check of a pair that names
// the suspect counts against the suspect alone: gpu4->gpu5 at half speed is gpu5's failure,
// not gpu4's.
struct GpuOutcome {
  std::string gpu;                   // "gpu5"
  Outcome outcome = Outcome::kPass;  // kFail, kWarn or kPass
  int checks = 0, failed = 0, warned = 0;
};

// Every GPU the checks name, in GPU order; `suspect` is suspect_of(v), which the caller has
// already worked out to show it first.
std::vector<GpuOutcome> gpu_outcomes(const RunVerdict& v, const std::optional<Suspect>& suspect);

// "per GPU: gpu5 FAIL (46 of 88 checks); 7 pass (gpu0, gpu1, ...)"; "" when every GPU passes or
// fewer than two are named.
std::string gpu_outcomes_line(const std::vector<GpuOutcome>& gpus);

// For JSON outputs that show a verdict (judge --format json, compare --format json):
// {"suspect": {"gpu", "named_in", "reasons", "host_link", "line"} or null,
//  "gpus": [{"gpu", "outcome", "checks", "failed", "warned"}, ...]}. Derived from the checks on
// output, never stored in a results document (which keeps the checks it is derived from).
nlohmann::json suspects_json(const RunVerdict& v);

}  // namespace p2p::doc
