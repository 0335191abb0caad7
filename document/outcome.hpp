// The one outcome vocabulary of p2pcheck. Every judged item — a figure's acceptance check, a
// comparison of two figures, a gate reason, a rank, a whole run — ends in an Outcome; text,
// JSON, JUnit and exit codes are derived from it, never from strings compared by hand.
//
// The measurement states a document records (a figure's status, a collective's, how a rank
// process ended, how a figure moved between two runs) are typed too, each with its own words
// in the document, and each maps to an Outcome in exactly one place (outcome_of).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace p2p::doc {

enum class Outcome {
  kPass,
  kWarn,           // passes, with something a person should look at
  kFail,           // a verdict against the host: the run must not pass
  kError,          // the check could not be made (a library failure, a rank that died)
  kSkipped,        // not judged, with the reason (waived, too small to judge, no data)
  kNotMeaningful,  // a figure that means nothing on this host (logical GPUs, one-rank algbw)
};

const char* to_string(Outcome o);  // pass | warn | fail | error | skipped | not_meaningful
Outcome outcome_from_string(const std::string& word, const std::string& what);

// Higher is more important: fail > error > warn > skipped > not meaningful > pass. Reasons are
// listed most important first, and a run's outcome is the most important of its checks.
int severity(Outcome o);
Outcome worst(Outcome a, Outcome b);
// A run with this outcome passes (pass, warn, skipped, not meaningful).
bool passes(Outcome o);

// A bench figure (bandwidth or latency) as measured.
enum class FigureStatus {
  kOk,      // measured and verified
  kWaived,  // not measured, with the reason (no peer access, a case that needs two GPUs)
  kFailed,  // measured, and the data did not verify
  kError,   // the case hit an error
};
const char* to_string(FigureStatus s);  // ok | waived | failed | error
Outcome outcome_of(FigureStatus s);     // pass | skipped | fail | error

// One NCCL collective (or host pair) as measured.
enum class CollectiveStatus {
  kOk,
  kWrong,  // the result did not verify (#wrong > 0)
  kHang,   // it did not finish within the deadline
  kError,
};
const char* to_string(CollectiveStatus s);  // ok | wrong | hang | error
Outcome outcome_of(CollectiveStatus s);     // pass | fail | fail | error
// As a figure of a matrix or a comparison: ok | failed | failed | error (as outcome_of).
FigureStatus figure_status_of(CollectiveStatus s);

// How a rank process ended, as its parent (or MPI rank 0) saw it.
enum class RankEnd {
  kDone,
  kHang,      // it said it hung
  kError,     // it said it failed and stopped
  kDied,      // a signal, or an exit without its final line
  kKilled,    // by p2pcheck: no rank reported anything within the deadline
  kNoResult,  // MPI: the process sent rank 0 nothing within the deadline
  kStopped,   // aborted its communicators on the parent's word after another rank ended
};
const char* to_string(RankEnd e);  // done | hang | error | died | killed | no_result | stopped
Outcome outcome_of(RankEnd e);     // done passes, error is an error, the rest fail

// How one figure moved from a baseline run to a candidate run (`compare`).
enum class Change {
  kRegressed,
  kImproved,
  kSame,
  kLost,         // ok in the baseline, not ok (waived, failed, error) in the run
  kNew,          // only in the run
  kMissing,      // only in the baseline
  kNotJudged,    // too small to judge, or no number on one side
  kOneSideOnly,  // an imported side holds only what its tool measured
};
const char* to_string(Change c);  // regressed | improved | same | lost | new | missing | ...
// The same word for a sentence: "not judged", "one side only".
std::string in_words(Change c);
// regressed, lost and missing fail (missing passes as skipped when the user allowed it);
// not_judged and one_side_only are skipped; the rest pass.
Outcome outcome_of(Change c, bool missing_allowed);

// `--min-busbw` and other threshold verdicts over one series.
enum class ThresholdStatus { kPass, kFail, kNotJudged };
const char* to_string(ThresholdStatus s);  // pass | fail | not_judged
Outcome outcome_of(ThresholdStatus s);

// One all-reduce message of `infer` in one NCCL setting (P2P on or off), as measured.
enum class MessageStatus {
  kOk,
  kWrong,   // the result did not verify
  kHang,    // a call did not complete within the deadline
  kError,   // a rank reported an error, or not every rank reported its times
  kNotRun,  // no rank reported it: the run stopped before it
};
const char* to_string(MessageStatus s);  // ok | wrong | hang | error | not_run
Outcome outcome_of(MessageStatus s);     // pass | fail | fail | error | error
// What the ranks reported for a message: ok stays ok, the rest keep their word.
MessageStatus message_status_of(CollectiveStatus s);

// One ordered rank pair of the CUDA IPC check (`infer`), and a rank's report of its side.
enum class IpcStatus {
  kOk,
  kFail,    // the writer could not map or write, or the owner read back other bytes
  kNotRun,  // a rank never reported the pair
};
const char* to_string(IpcStatus s);  // ok | fail | not_run
Outcome outcome_of(IpcStatus s);     // pass | fail | error

// One host of a fleet run (`merge`, `cluster`).
enum class HostStatus {
  kPass,
  kFail,      // its chain, its gate, its topology or a worse-side outlier
  kNoResult,  // its lines stop before run_end: it died, stalled or was lost
};
const char* to_string(HostStatus s);  // pass | fail | no_result
Outcome outcome_of(HostStatus s);     // pass | fail | error

// A host's GPU pair classes against the fleet's reference topology.
enum class TopologyMatch {
  kSame,
  kDiffers,
  kUnknown,  // no topology line, or no reference to compare with
};
const char* to_string(TopologyMatch m);  // same | differs | unknown

// JSON: the words above; reading refuses any other word with InputError naming it.
void to_json(nlohmann::json& j, Outcome o);
void from_json(const nlohmann::json& j, Outcome& o);
void to_json(nlohmann::json& j, FigureStatus s);
void from_json(const nlohmann::json& j, FigureStatus& s);
void to_json(nlohmann::json& j, CollectiveStatus s);
void from_json(const nlohmann::json& j, CollectiveStatus& s);
void to_json(nlohmann::json& j, RankEnd e);
void from_json(const nlohmann::json& j, RankEnd& e);
void to_json(nlohmann::json& j, Change c);
void from_json(const nlohmann::json& j, Change& c);
void to_json(nlohmann::json& j, ThresholdStatus s);
void from_json(const nlohmann::json& j, ThresholdStatus& s);
void to_json(nlohmann::json& j, MessageStatus s);
void from_json(const nlohmann::json& j, MessageStatus& s);
void to_json(nlohmann::json& j, IpcStatus s);
void from_json(const nlohmann::json& j, IpcStatus& s);
void to_json(nlohmann::json& j, HostStatus s);
void from_json(const nlohmann::json& j, HostStatus& s);
void to_json(nlohmann::json& j, TopologyMatch m);
void from_json(const nlohmann::json& j, TopologyMatch& m);

}  // namespace p2p::doc
