// The words a facts file records for what the doctor's probes did: how a probe ended, what each
// write of the peer-copy check found, which pairs that check ran, and what the copy proved of a
// pair. Each is an enum whose words live in one table (probe_states.cpp); the rules compare the
// enums, and the JSON reads and writes exactly the words facts files have always carried.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "common/isolated.hpp"

namespace p2p::doctor {

// A probe run in a child process (CUDA, NVML, peer copy).
enum class ProbeStatus {
  kNotRun,          // not attempted (a --root capture, a replay, --no-peer-copy): see detail
  kLibraryMissing,  // the driver library would not load
  kCompleted,
  kCrashed,   // a signal ended the child
  kTimedOut,  // the child outlived its deadline
  kFailed,    // the child exited with an error or said nothing readable
};
// not_run | library_missing | completed | crashed | timed_out | failed
const char* to_string(ProbeStatus s);
std::optional<ProbeStatus> probe_status_named(const std::string& word);
// A child that did not complete, as the probe's status (crashed, timed_out, failed).
ProbeStatus probe_status_of(IsolatedStatus s);

// One write of the peer-copy check (a copy-engine copy or an SM store).
enum class CopyResult {
  kOk,       // every word arrived
  kCorrupt,  // words differ
  kError,    // an API call failed (see the pair's detail)
  kNotRun,   // see the pair's detail
};
const char* to_string(CopyResult r);  // ok | corrupt | error | not_run
std::optional<CopyResult> copy_result_named(const std::string& word);
std::string copy_result_words();  // "ok, corrupt, error or not_run", for a reader's message

// Which pairs the peer-copy check ran.
enum class PeerCopyMode {
  kPairs,    // every ordered pair of GPUs
  kSelf,     // one GPU against itself
  kLogical,  // logical GPUs placed round-robin on fewer real ones (src/dst are logical ids)
  kNone,     // not run
};
const char* to_string(PeerCopyMode m);  // pairs | self | logical | "" (not run)
std::optional<PeerCopyMode> peer_copy_mode_named(const std::string& word);
std::string peer_copy_mode_words();  // "pairs, self, logical or empty", for a reader's message

// What open(O_RDWR) of a device node did. A facts file spells it "ok" where the open worked and
// by the error otherwise.
struct OpenResult {
  bool opened = false;
  // Where not opened: errno's name ("EPERM"), or what stopped the probe ("no result", "open
  // crashed").
  std::string error;

  static OpenResult ok() { return OpenResult{true, ""}; }
  static OpenResult failed(std::string error) { return OpenResult{false, std::move(error)}; }
  bool failed_with(const char* errno_name) const { return !opened && error == errno_name; }
};
std::string to_string(const OpenResult& r);  // "ok" or the error
OpenResult open_result_named(const std::string& word);

// What the peer copy proved of a pair of GPUs, its directions taken together. Not recorded in
// facts: derived from them where a pair is judged (a VFIO guest's cliques, `vm`'s host view),
// each judge saying how many intact directions it asks for.
enum class PairCopy {
  kNotRun,    // not proved either way
  kVerified,  // arrived intact
  kFailed,    // a direction arrived corrupt or hit an error
};

}  // namespace p2p::doctor
