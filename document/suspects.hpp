// What a verdict's reasons point at. A host with one GPU in a slot trained at x8 fails dozens
// of figures, every one naming that GPU and a different partner; listed one by one they bury the
// cause. Counting what the reasons share brings it out: "suspect: gpu5 in 46 of 46 reasons".
// What they share may be a GPU, or a place the checks record (Check::places): a PCIe switch whose
// GPUs fail together, a CPU socket (its NUMA node), a kind of path (every failing pair crosses the
// sockets), or in a fleet a host. Pure: the checks are all it reads.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "document/verdict.hpp"

namespace p2p::doc {

// Tried in this order; the first kind with a suspect wins. A host comes first, because a
// fleet's GPUs are numbered per host (gpu0 of one host is not gpu0 of another); a GPU before the
// places that hold several GPUs, and the narrower place before the wider.
enum class SuspectKind { kHost, kGpu, kSwitch, kNuma, kPath };

// "host", "gpu", "switch", "numa", "path": the kind's word in Check::places and in JSON.
const char* to_string(SuspectKind k);

struct Suspect {
  SuspectKind kind = SuspectKind::kGpu;
  std::string name;  // "gpu5", "node07", "0000:40:00.0" (a switch), "1" (a NUMA node: a socket, or
                     // part of one), "SYS"
  int named_in = 0;  // the reasons (failures and warnings) that name it
  int reasons = 0;   // all the reasons
  std::vector<std::string> gpus;  // for a place: the GPUs its reasons name, in GPU order
  // For a GPU: the first reason held against its own link to the host (a copy between it and
  // the host short of the link's ceiling or floor), up to its first ';': "27.6 GB/s is 44% of
  // PCIe gen5 x16 (63.0 GB/s one way)"; against a baseline, the figure and its move:
  // "h2d_ce host->gpu5 256MiB regressed -56.2%". "" when no such reason: the cause is a pair's.
  std::string host_link;

  // "gpu5" for a GPU; "host node07", "PCIe switch 0000:40:00.0", "NUMA node 1", "the SYS paths".
  std::string label() const;
};

// The thing named by at least half of the reasons, and by more of them than any other of its
// kind, trying the kinds in SuspectKind's order. It must single something out: a GPU, host or
// place that every judged check names (the one GPU of a one-GPU run, the one path class of a
// host whose pairs are all SYS) is no suspect. nullopt when the reasons are fewer than two or
// spread over several of every kind.
std::optional<Suspect> suspect_of(const RunVerdict& v);

// "suspect: gpu5 in 46 of 46 reasons; its host link: 27.6 GB/s is 44% of PCIe gen5 x16 (...):
// check the width and speed it trained at (p2pcheck doctor: pcie.link), then reseat it": the
// line that heads the verdict's reasons, with the next step its evidence points to. A place's
// line names its GPUs and the step that fits the place.
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
// {"suspect": {"kind", "name", "gpu" (the name for a GPU, else null), "gpus", "named_in",
//              "reasons", "host_link", "line"} or null,
//  "gpus": [{"gpu", "outcome", "checks", "failed", "warned"}, ...]}. Derived from the checks on
// output, never stored in a results document (which keeps the checks it is derived from).
nlohmann::json suspects_json(const RunVerdict& v);

}  // namespace p2p::doc
