#include "common/ansi_escapes.hpp"

#include <cctype>

namespace p2p {

namespace {

bool is_parameter(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == ';'; }

// The end (one past the final byte) of a sequence starting at `at` ('[' after ESC, or a bare
// '[' when the escape byte was lost); `at` itself when there is none.
std::size_t sequence_end(std::string_view s, std::size_t at, bool had_escape) {
  if (at >= s.size() || s[at] != '[') return at;
  std::size_t k = at + 1;
  bool digit = false;
  for (; k < s.size() && is_parameter(s[k]); ++k) digit = digit || s[k] != ';';
  if (k >= s.size()) return at;
  const char final = s[k];
  if (had_escape && std::isalpha(static_cast<unsigned char>(final)) != 0) return k + 1;
  if (!had_escape && final == 'm' && digit) return k + 1;
  return at;
}

}  // namespace

std::string strip_ansi_escapes(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size();) {
    const bool escape = line[i] == '\x1b';
    const std::size_t from = escape ? i + 1 : i;
    const std::size_t end = sequence_end(line, from, escape);
    if (end != from) {
      i = end;
      continue;
    }
    if (!escape) out.push_back(line[i]);
    ++i;  // a lone escape byte carries nothing
  }
  return out;
}

}  // namespace p2p
