#include "doctor/probe_states.hpp"

#include "common/enum_names.hpp"

namespace p2p::doctor {

namespace {

constexpr EnumNames<ProbeStatus, 6> kProbeStatuses{
    {{ProbeStatus::kNotRun, "not_run"},
     {ProbeStatus::kLibraryMissing, "library_missing"},
     {ProbeStatus::kCompleted, "completed"},
     {ProbeStatus::kCrashed, "crashed"},
     {ProbeStatus::kTimedOut, "timed_out"},
     {ProbeStatus::kFailed, "failed"}}};

constexpr EnumNames<CopyResult, 4> kCopyResults{{{CopyResult::kOk, "ok"},
                                                 {CopyResult::kCorrupt, "corrupt"},
                                                 {CopyResult::kError, "error"},
                                                 {CopyResult::kNotRun, "not_run"}}};

constexpr EnumNames<PeerCopyMode, 4> kPeerCopyModes{{{PeerCopyMode::kPairs, "pairs"},
                                                     {PeerCopyMode::kSelf, "self"},
                                                     {PeerCopyMode::kLogical, "logical"},
                                                     {PeerCopyMode::kNone, ""}}};

// The word of an open that worked; anything else a facts file holds there is the error.
constexpr const char* kOpened = "ok";

}  // namespace

std::string to_string(const OpenResult& r) { return r.opened ? kOpened : r.error; }

OpenResult open_result_named(const std::string& word) {
  return word == kOpened ? OpenResult::ok() : OpenResult::failed(word);
}

const char* to_string(ProbeStatus s) { return name_in(kProbeStatuses, s); }

std::optional<ProbeStatus> probe_status_named(const std::string& word) {
  return find_in(kProbeStatuses, word);
}

ProbeStatus probe_status_of(IsolatedStatus s) {
  switch (s) {
    case IsolatedStatus::kCompleted: return ProbeStatus::kCompleted;
    case IsolatedStatus::kCrashed: return ProbeStatus::kCrashed;
    case IsolatedStatus::kTimedOut: return ProbeStatus::kTimedOut;
    case IsolatedStatus::kFailed: return ProbeStatus::kFailed;
  }
  return ProbeStatus::kFailed;
}

const char* to_string(CopyResult r) { return name_in(kCopyResults, r); }

std::optional<CopyResult> copy_result_named(const std::string& word) {
  return find_in(kCopyResults, word);
}

std::string copy_result_words() { return words_in(kCopyResults, " or "); }

const char* to_string(PeerCopyMode m) { return name_in(kPeerCopyModes, m); }

std::optional<PeerCopyMode> peer_copy_mode_named(const std::string& word) {
  return find_in(kPeerCopyModes, word);
}

std::string peer_copy_mode_words() { return words_in(kPeerCopyModes, " or "); }

}  // namespace p2p::doctor
