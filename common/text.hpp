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

// Text for a terminal: UTF-8 as it is, line breaks and tabs kept, and every other control byte
// (an escape sequence's ESC, a C1 control) and every byte that is not UTF-8 written as "\xNN".
// Values read from a user's files (a VM's name, its arguments) reach the text output through
// it, so a file cannot move the cursor, recolour the terminal or print bytes that are not text.
inline std::string terminal_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto escape = [&](unsigned char c) {
    char b[8];
    std::snprintf(b, sizeof b, "\\x%02x", c);
    out += b;
  };
  const auto continuation = [&](std::size_t i) {
    return i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0x80             ? 1
                    : (c & 0xE0) == 0xC0 ? 2
                    : (c & 0xF0) == 0xE0 ? 3
                    : (c & 0xF8) == 0xF0 ? 4
                                         : 0;
    bool whole = n != 0 && !(c == 0xC0 || c == 0xC1 || c > 0xF4);
    for (std::size_t k = 1; whole && k < n; ++k) whole = continuation(i + k);
    const bool c1_control =
        n == 2 && whole && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    const bool control = n == 1 && ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F);
    if (!whole || control || c1_control) {
      escape(c);
      ++i;
      continue;
    }
    out.append(text, i, n);
    i += n;
  }
  return out;
}

// The text without the UTF-8 byte order mark Windows editors put before a saved file or paste.
inline std::string without_bom(const std::string& text) {
  static const std::string kBom = "\xEF\xBB\xBF";
  return text.compare(0, kBom.size(), kBom) == 0 ? text.substr(kBom.size()) : text;
}

}  // namespace p2p
