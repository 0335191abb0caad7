// The output of the rules: one finding per check, and the verdict that ranks root causes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "document/finding_status.hpp"

namespace p2p::doctor {

// pass | warn | fail | skip | unknown: the report's words (document/finding_status.hpp), which
// JUnit and Prometheus read back.
using Status = doc::FindingStatus;
using doc::to_string;

// What the verdict makes of the host as a whole.
enum class VerdictState {
  kHealthy,
  kDegraded,      // CUDA works; P2P is limited (or lost to the VM's settings)
  kPartial,       // CUDA works on some GPUs and not on others
  kBroken,        // CUDA cannot work here
  kNoDriver,      // the nvidia kernel module is not loaded
  kInconclusive,  // nothing failed, but what decides could not be probed or proved
  kUnhealthy,     // GPUs that are failing, though nothing graver is wrong
  kAtRisk,        // nothing failed, but a warning puts P2P at risk ("healthy" means no warning)
};
// healthy | degraded | partial | broken | no_driver | inconclusive | unhealthy | at_risk
const char* to_string(VerdictState s);

struct Finding {
  std::string id;  // stable dotted key: "gsp.firmware_file"
  Status status = Status::kUnknown;
  std::string summary;                // one line
  std::vector<std::string> evidence;  // the values read, "where: what"
  std::string hint;                   // what to do; empty when nothing is to be done
};

// One candidate root cause, ranked by how much of the evidence it explains.
struct Cause {
  std::string id;          // "gsp_firmware", "uvm_hmm", ...
  std::string title;       // "GSP firmware / kernel-driver support"
  int score = 0;           // ranking weight; higher explains more
  std::string confidence;  // "confirmed", "likely", "possible"
  std::vector<std::string> evidence;
  std::string fix;
  std::vector<std::string> gpus;  // bus ids of the GPUs it concerns; empty: the host as a whole
};

struct Verdict {
  VerdictState state = VerdictState::kInconclusive;
  std::string headline;                 // one line naming the most likely cause first
  std::vector<Cause> causes;            // most likely first
  std::vector<std::string> ruled_out;   // "device permissions and cgroups ruled out: ..."
  std::vector<std::string> unverified;  // what could not be seen from here (host-side checks)
  // "partial": CUDA works on some GPUs and not on these (bus ids).
  std::vector<std::string> unusable_gpus;
  // GPUs that are failing (memory, a reset they need, lost, NVLink, GSP): they fail acceptance
  // even where CUDA initialises on them. State "unhealthy" when nothing graver is wrong.
  std::vector<std::string> failing_gpus;
};

nlohmann::json to_json(const Finding& f);
nlohmann::json to_json(const Cause& c);
nlohmann::json to_json(const Verdict& v);

}  // namespace p2p::doctor
