// The current time as results documents record it: ISO 8601 in UTC, to the second.
#pragma once

#include <ctime>
#include <string>

namespace p2p {

inline std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace p2p
