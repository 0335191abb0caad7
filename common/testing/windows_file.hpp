// For tests of readers of pasted text: the same text as Windows tools save it. Header-only;
// test code only.
#pragma once

#include <string>

namespace p2p::testing {

// CRLF line ends and a UTF-8 byte order mark before the first byte.
inline std::string as_windows_file(const std::string& text) {
  std::string out = "\xEF\xBB\xBF";
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

}  // namespace p2p::testing
