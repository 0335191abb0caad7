// Runs work in a forked child so that a library that crashes (SIGSEGV inside libcuda, inside
// hwloc's XML reader) or hangs (cuInit waiting on a wedged GPU) cannot take p2pcheck down with
// it. The child reports through a pipe, one line per step; the parent keeps the last complete
// line, so work that dies half-way still says how far it got.
#pragma once

#include <functional>
#include <string>

namespace p2p {

// How the child ended: it finished, a signal ended it, it outlived its deadline (and was killed),
// or it exited with an error (or could not be started).
enum class IsolatedStatus { kCompleted, kCrashed, kTimedOut, kFailed };
const char* to_string(IsolatedStatus s);  // completed | crashed | timed_out | failed

struct IsolatedResult {
  IsolatedStatus status = IsolatedStatus::kFailed;
  std::string output;  // the last complete line the child emitted ("" if none)
  std::string detail;  // "SIGSEGV", "no result after 20 s", "exit status 3", ...
};

using Emit = std::function<void(const std::string& line)>;

// `body` runs in the child and calls `emit` with progress snapshots (each without newlines).
// The child never returns into the caller's stack: it _exit()s after `body` (status 3 when
// `body` throws).
IsolatedResult run_isolated(const std::function<void(const Emit& emit)>& body, int timeout_ms);

}  // namespace p2p
