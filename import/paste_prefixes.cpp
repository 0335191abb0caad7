#include "import/paste_prefixes.hpp"

#include <cctype>

namespace p2p::import::paste {

namespace {

bool digit_at(std::string_view s, std::size_t i) {
  return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0;
}
bool blank_at(std::string_view s, std::size_t i) {
  return i < s.size() && (s[i] == ' ' || s[i] == '\t');
}
std::size_t skip_blanks(std::string_view s, std::size_t i) {
  while (blank_at(s, i)) ++i;
  return i;
}
// Exactly `n` digits at `i`: the index after them, or npos.
std::size_t digits(std::string_view s, std::size_t i, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k)
    if (!digit_at(s, i + k)) return std::string_view::npos;
  return i + n;
}
// One to `most` digits at `i`: the index after them, or npos.
std::size_t some_digits(std::string_view s, std::size_t i, std::size_t most) {
  std::size_t k = i;
  while (digit_at(s, k) && k - i < most) ++k;
  return k == i || digit_at(s, k) ? std::string_view::npos : k;
}
std::size_t literal(std::string_view s, std::size_t i, std::string_view what) {
  return s.substr(i, what.size()) == what ? i + what.size() : std::string_view::npos;
}

// "07:36:17" and an optional fraction: the index after it, or npos.
std::size_t clock_time(std::string_view s, std::size_t i) {
  for (int part = 0; part < 3 && i != std::string_view::npos; ++part) {
    if (part > 0) i = literal(s, i, ":");
    if (i != std::string_view::npos) i = digits(s, i, 2);
  }
  if (i != std::string_view::npos && i + 1 < s.size() && (s[i] == '.' || s[i] == ',') &&
      digit_at(s, i + 1)) {
    i += 1;
    while (digit_at(s, i)) ++i;
  }
  return i;
}

// "Z", "+00:00", "-0700" after a time: the index after it (i when there is none).
std::size_t zone(std::string_view s, std::size_t i) {
  if (i < s.size() && s[i] == 'Z') return i + 1;
  if (i < s.size() && (s[i] == '+' || s[i] == '-') &&
      digits(s, i + 1, 2) != std::string_view::npos) {
    std::size_t k = i + 3;
    if (k < s.size() && s[k] == ':') ++k;
    const std::size_t end = digits(s, k, 2);
    return end == std::string_view::npos ? i + 3 : end;
  }
  return i;
}

// " - INFO - " after a timestamp (Python's logging format "%(asctime)s - %(levelname)s - ").
std::size_t logging_level(std::string_view s, std::size_t i) {
  std::size_t k = literal(s, i, "- ");
  if (k == std::string_view::npos) return i;
  const std::size_t word = k;
  while (k < s.size() && std::isupper(static_cast<unsigned char>(s[k])) != 0) ++k;
  if (k == word) return i;
  k = literal(s, k, " - ");
  return k == std::string_view::npos ? i : k;
}

}  // namespace

std::size_t quote_marker(std::string_view line) {
  std::size_t i = 0;
  while (i < 3 && i < line.size() && line[i] == ' ') ++i;
  if (i >= line.size() || line[i] != '>') return 0;
  while (i < line.size() && line[i] == '>') {
    ++i;
    if (i + 1 < line.size() && line[i] == ' ' && line[i + 1] == '>') ++i;
  }
  return i < line.size() && line[i] == ' ' ? i + 1 : i;
}

std::size_t mpi_rank_tag(std::string_view line) {
  std::size_t i = literal(line, skip_blanks(line, 0), "[");
  if (i != std::string_view::npos) i = some_digits(line, i, 6);
  if (i != std::string_view::npos && i < line.size() && line[i] == ',')
    i = some_digits(line, i + 1, 6);
  if (i != std::string_view::npos) i = literal(line, i, "]<std");
  if (i == std::string_view::npos) return 0;
  std::size_t k = literal(line, i, "out>");
  if (k == std::string_view::npos) k = literal(line, i, "err>");
  if (k == std::string_view::npos) return 0;
  return k < line.size() && line[k] == ':' ? k + 1 : k;
}

std::size_t timestamp(std::string_view line) {
  std::size_t i = skip_blanks(line, 0);
  const bool bracket = i < line.size() && line[i] == '[';
  if (bracket) ++i;
  std::size_t k = digits(line, i, 4);
  if (k != std::string_view::npos) {  // a date, then 'T' or a blank, then the time
    k = literal(line, k, "-");
    if (k != std::string_view::npos) k = digits(line, k, 2);
    if (k != std::string_view::npos) k = literal(line, k, "-");
    if (k != std::string_view::npos) k = digits(line, k, 2);
    if (k != std::string_view::npos && k < line.size() && (line[k] == 'T' || line[k] == ' '))
      k = clock_time(line, k + 1);
    else
      k = std::string_view::npos;
  } else {
    k = clock_time(line, i);
  }
  if (k == std::string_view::npos) return 0;
  k = zone(line, k);
  if (bracket) k = literal(line, k, "]");
  if (k == std::string_view::npos || (k < line.size() && !blank_at(line, k))) return 0;
  k = skip_blanks(line, k);
  return logging_level(line, k);
}

std::size_t bracketed_rank(std::string_view line) {
  std::size_t i = literal(line, skip_blanks(line, 0), "[");
  if (i != std::string_view::npos) i = some_digits(line, i, 6);
  if (i != std::string_view::npos) i = literal(line, i, "]");
  if (i == std::string_view::npos || (i < line.size() && line[i] != ' ')) return 0;
  return i < line.size() ? i + 1 : i;
}

std::size_t task_label(std::string_view line) {
  std::size_t i = some_digits(line, skip_blanks(line, 0), 5);
  if (i != std::string_view::npos) i = literal(line, i, ":");
  if (i == std::string_view::npos || (i < line.size() && line[i] != ' ')) return 0;
  return i < line.size() ? i + 1 : i;
}

std::optional<std::string> fence_rest(std::string_view line) {
  const std::size_t start = skip_blanks(line, 0);
  if (start >= line.size() || (line[start] != '`' && line[start] != '~')) return std::nullopt;
  const char mark = line[start];
  std::size_t i = start;
  while (i < line.size() && line[i] == mark) ++i;
  if (i - start < 3) return std::nullopt;
  const std::size_t rest = skip_blanks(line, i);
  std::size_t end = rest;
  while (end < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[end])) != 0 || line[end] == '_' ||
          line[end] == '-' || line[end] == '+' || line[end] == '.'))
    ++end;
  if (skip_blanks(line, end) >= line.size()) return std::string();  // at most an info string
  return std::string(line.substr(i));
}

std::optional<LeadingNumber> leading_number(std::string_view line) {
  const std::size_t start = skip_blanks(line, 0);
  const std::size_t end = some_digits(line, start, 6);
  if (end == std::string_view::npos) return std::nullopt;
  const bool separator =
      end == line.size() || blank_at(line, end) || line[end] == ':' || line[end] == '|';
  if (!separator) return std::nullopt;
  LeadingNumber n;
  n.value = std::stol(std::string(line.substr(start, end - start)));
  n.length = end == line.size() ? end : end + 1;
  return n;
}

}  // namespace p2p::import::paste
