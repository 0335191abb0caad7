// Line and token helpers shared by the capture parsers: pasted output arrives with CRLF line
// ends, a UTF-8 byte order mark, tabs, ANSI escapes (common/ansi_escapes.hpp) and stray spaces.
// Header-only, pure.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/ansi_escapes.hpp"
#include "common/text.hpp"

namespace p2p {

// Whether the text, past a byte order mark and white space, is a JSON object.
inline bool starts_json_object(const std::string& text) {
  const std::string t = without_bom(text);
  const auto first = t.find_first_not_of(" \t\r\n");
  return first != std::string::npos && t[first] == '{';
}

// The text's lines, byte order mark and CR removed, ANSI escapes stripped.
inline std::vector<std::string> clean_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(without_bom(text));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(strip_ansi_escapes(line));
  }
  return lines;
}

inline std::vector<std::string> split_ws(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string token;
  while (in >> token) out.push_back(token);
  return out;
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// A whole-token finite number ("55.44", "1.2e+03"); nullopt for anything else, "N/A" included,
// and for "nan", "inf" or "1e999": no figure of a document is infinite or not a number (JSON has
// no way to write one, so a document holding it would not read back).
inline std::optional<double> parse_number(const std::string& s) {
  // Decimal only: strtod also reads "0x10" (as 16), "infinity" and leading blanks, which no tool
  // prints for a figure.
  const bool decimal = !s.empty() && s.find_first_not_of("0123456789+-.eE") == std::string::npos;
  if (!decimal) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// A matrix row cut short is the matrix's last when no row of it follows after line `i` (the
// next line that is not blank does not start with a number): where a paste ends.
inline bool no_row_follows(const std::vector<std::string>& lines, std::size_t i) {
  for (std::size_t j = i + 1; j < lines.size(); ++j) {
    const auto tokens = split_ws(lines[j]);
    if (!tokens.empty()) return !parse_number(tokens[0]);
  }
  return true;
}

// Why a figure's cell is not one ("" when it is): a figure is a decimal number, finite and not
// negative; "N/A" (no figure) is left to the caller. Named in the importers' errors with its line
// and column, so that "-3.2", "0x10" or "inf" is refused, not imported as a figure.
inline bool is_non_finite_number(const std::string& s);

inline std::string figure_cell_problem(const std::string& token) {
  if (is_non_finite_number(token)) return "\"" + token + "\" is not a finite number";
  const auto v = parse_number(token);
  if (!v) return "\"" + token + "\" is not a decimal number";
  if (*v < 0) return "\"" + token + "\" is negative: no bandwidth, time or count is";
  return "";
}

// "nan", "-nan", "inf", "1e999": a token strtod reads whole as a number that is not finite.
inline bool is_non_finite_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && !std::isfinite(v);
}

// "GPU12" -> 12 for `prefix` "GPU"; nullopt otherwise.
inline std::optional<int> indexed_name(const std::string& s, const std::string& prefix) {
  if (!starts_with(s, prefix) || s.size() == prefix.size() || s.size() > prefix.size() + 4)
    return std::nullopt;
  int v = 0;
  for (std::size_t i = prefix.size(); i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace p2p
