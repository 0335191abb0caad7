// One probed value and how we came by it. A doctor must not read "could not look" as "fine":
// a file that is missing (the module is not loaded) and a file we may not read (an unprivileged
// container) lead to different conclusions, and neither is the same as a value we saw.
#pragma once

#include <string>
#include <utility>

namespace p2p::doctor {

enum class Seen {
  kNotChecked,  // the collector did not look (no live APIs under --root, or the capture lacks it)
  kPresent,     // read successfully: `value` holds it
  kAbsent,      // does not exist (ENOENT): itself a fact, e.g. "module not loaded"
  kUnreadable,  // exists or may exist, but reading failed (EACCES, EPERM, ...): unknown
};

// "not_checked", "present", "absent", "unreadable" (the JSON spelling).
const char* to_string(Seen s);

template <class T>
struct Observed {
  Seen seen = Seen::kNotChecked;
  T value{};          // meaningful only when seen == kPresent
  std::string error;  // errno name ("EACCES") when seen == kUnreadable

  bool present() const { return seen == Seen::kPresent; }
  bool absent() const { return seen == Seen::kAbsent; }
  // Unreadable or never looked at: the value is unknown, which is not the same as absent.
  bool unknown() const { return seen == Seen::kNotChecked || seen == Seen::kUnreadable; }

  static Observed of(T v) {
    Observed o;
    o.seen = Seen::kPresent;
    o.value = std::move(v);
    return o;
  }
  static Observed missing() {
    Observed o;
    o.seen = Seen::kAbsent;
    return o;
  }
  static Observed unreadable(std::string why) {
    Observed o;
    o.seen = Seen::kUnreadable;
    o.error = std::move(why);
    return o;
  }
};

}  // namespace p2p::doctor
