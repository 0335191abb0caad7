// Which GPU a verdict's reasons point at. A host with one GPU in a slot trained at x8 fails dozens
// of figures, every one naming that GPU and a different partner; listed one by one they bury the
// cause. Counting the GPUs the reasons name brings it out: "suspect: gpu5 in 46 of 46 reasons".
// Pure: the reasons' subjects and messages are all it reads.
#pragma once

#include <optional>
#include <string>

#include "document/verdict.hpp"

namespace p2p::doc {

struct Suspect {
  std::string gpu;   // "gpu5", as the figures name their endpoints
  int named_in = 0;  // the reasons (failures and warnings) that name it
  int reasons = 0;   // all the reasons
};

// The GPU named by at least half of the reasons, and by more of them than any other GPU; nullopt
// when the reasons are fewer than two or spread over several GPUs (no single suspect).
std::optional<Suspect> suspect_of(const RunVerdict& v);

// "suspect: gpu5 in 46 of 46 reasons (...)": the line that heads the verdict's reasons.
std::string suspect_line(const Suspect& s);

}  // namespace p2p::doc
