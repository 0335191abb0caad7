// The last line of every command that judges something, one grammar for people, CI logs and the
// main job's summary to read:
//   p2pcheck <command>: PASS | PASS with warnings | FAIL | BLOCKED | ERROR — <first reason>
// Caveats, where a command has them, follow the reason on the same line.
#pragma once

#include <string>

namespace p2p {

enum class VerdictWord { kPass, kPassWithWarnings, kFail, kBlocked, kError };

inline const char* to_string(VerdictWord w) {
  switch (w) {
    case VerdictWord::kPass: return "PASS";
    case VerdictWord::kPassWithWarnings: return "PASS with warnings";
    case VerdictWord::kFail: return "FAIL";
    case VerdictWord::kBlocked: return "BLOCKED";
    case VerdictWord::kError: return "ERROR";
  }
  return "ERROR";
}

// "p2pcheck gate: BLOCKED — expect.pair_class: ...\n"; no " — " when `reason` is empty.
inline std::string verdict_line(const std::string& command, VerdictWord w,
                                const std::string& reason) {
  return "p2pcheck " + command + ": " + to_string(w) + (reason.empty() ? "" : " — " + reason) +
         "\n";
}

}  // namespace p2p
