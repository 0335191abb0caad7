// String helpers every module shares. One definition each, so that trimming and joining mean
// the same in the doctor, the topology, the importers and the reports (four copies had
// drifted: some trimmed only blanks and tabs, and kept the '\r' of a CRLF file).
#pragma once

#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace p2p {

// `s` without leading and trailing ASCII whitespace (blank, \t, \n, \v, \f, \r).
inline std::string trim(std::string_view s) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::size_t b = 0, e = s.size();
  while (b < e && space(s[b])) ++b;
  while (e > b && space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

// The items with `sep` between each two (empty items included).
inline std::string join(const std::vector<std::string>& items, std::string_view sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

// The text in ASCII lower case (bytes past ASCII unchanged).
inline std::string ascii_lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// A figure in four significant digits ("55.44", "1.2e+03"), as the fleet's lines print them.
inline std::string four_digits(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

// The text without the UTF-8 byte order mark Windows editors put before a saved file or paste.
inline std::string without_bom(const std::string& text) {
  static const std::string kBom = "\xEF\xBB\xBF";
  return text.compare(0, kBom.size(), kBom) == 0 ? text.substr(kBom.size()) : text;
}

}  // namespace p2p
