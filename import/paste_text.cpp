#include "import/paste_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/ansi_escapes.hpp"
#include "common/text.hpp"
#include "import/paste_prefixes.hpp"

namespace p2p::import {

namespace {

// The kinds of wrapper, in the order they are reported.
enum Kind : std::size_t {
  kBom,
  kCrlf,
  kEscapes,
  kWraps,
  kFences,
  kQuotes,
  kLineNumbers,
  kMpiTags,
  kBracketRanks,
  kTaskLabels,
  kTimestamps,
  kKinds
};
using Counts = std::array<int, kKinds>;

std::size_t columns(const std::string& s) {  // UTF-8 characters, as a terminal counts them
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::vector<PasteLine> split_lines(std::string_view text, Counts& n) {
  static constexpr std::string_view kBomBytes = "\xEF\xBB\xBF";
  if (text.substr(0, kBomBytes.size()) == kBomBytes) {
    text.remove_prefix(kBomBytes.size());
    n[kBom] = 1;
  }
  std::vector<PasteLine> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
      ++n[kCrlf];
    }
    const std::string clean = strip_ansi_escapes(line);
    if (clean != line) ++n[kEscapes];
    lines.push_back({clean, static_cast<int>(lines.size()) + 1});
    start = end + 1;
  }
  return lines;
}

// A terminal that wraps at its width W (80, 120, ...) leaves runs of lines exactly W columns
// wide, each run followed by the shorter rest of its line. Only that shape is rejoined, and only
// when it occurs twice or more: one run of rows as wide as the widest line is a fixed-width
// table, and a full-width line followed by nothing or a blank line was not wrapped.
bool terminal_width(std::size_t w) { return w >= 60 && (w % 10 == 0 || w == 132); }

void join_hard_wraps(std::vector<PasteLine>& lines, Counts& n) {
  std::size_t width = 0;
  for (const auto& l : lines) width = std::max(width, columns(l.text));
  if (!terminal_width(width)) return;
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [first, rest): the rest completes it
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (columns(lines[i].text) != width) continue;
    std::size_t rest = i;
    while (rest < lines.size() && columns(lines[rest].text) == width) ++rest;
    if (rest >= lines.size() || columns(lines[rest].text) == 0) return;
    runs.emplace_back(i, rest);
    i = rest;
  }
  if (runs.size() < 2) return;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    for (std::size_t k = it->first + 1; k <= it->second; ++k)
      lines[it->first].text += lines[k].text;
    lines.erase(lines.begin() + static_cast<long>(it->first) + 1,
                lines.begin() + static_cast<long>(it->second) + 1);
    n[kWraps] += static_cast<int>(it->second - it->first);
  }
}

// Quote markers, timestamps and mpirun tags, in whatever order they were stacked on a line.
void strip_stacked_prefixes(std::vector<PasteLine>& lines, Counts& n) {
  for (auto& l : lines) {
    bool q = false, t = false, m = false;
    for (int round = 0; round < 4; ++round) {
      std::size_t cut = paste::quote_marker(l.text);
      if (cut > 0) {
        q = true;
      } else if ((cut = paste::timestamp(l.text)) > 0) {
        t = true;
      } else if ((cut = paste::mpi_rank_tag(l.text)) > 0) {
        m = true;
      } else {
        break;
      }
      l.text.erase(0, cut);
    }
    n[kQuotes] += q;
    n[kTimestamps] += t;
    n[kMpiTags] += m;
  }
}

// True when a numbered run is an editor's numbering and not the row numbers of a matrix: some
// numbered line holds a word (a title, a header) or nothing at all.
bool numbers_lines(const std::vector<PasteLine>& lines, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    const auto number = paste::leading_number(lines[i].text);
    const std::string rest = trim(std::string_view(lines[i].text).substr(number->length));
    if (rest.empty()) return true;
    const char c = rest[0];
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-' && c != '.' &&
        rest.rfind("N/A", 0) != 0)
      return true;
  }
  return false;
}

// Runs of three or more lines numbered one after another (1, 2, 3, ...).
void strip_line_numbers(std::vector<PasteLine>& lines, Counts& n) {
  std::size_t i = 0;
  while (i < lines.size()) {
    auto first = paste::leading_number(lines[i].text);
    std::size_t end = i + 1;
    if (first) {
      long expect = first->value + 1;
      for (; end < lines.size(); ++end, ++expect) {
        const auto next = paste::leading_number(lines[end].text);
        if (!next || next->value != expect) break;
      }
    }
    if (first && end - i >= 3 && numbers_lines(lines, i, end)) {
      for (std::size_t k = i; k < end; ++k)
        lines[k].text.erase(0, paste::leading_number(lines[k].text)->length);
      n[kLineNumbers] += static_cast<int>(end - i);
    }
    i = end;
  }
}

// "[0] " or "0: " before most lines (at least three): the launcher's, not the tool's.
void strip_consistent(std::vector<PasteLine>& lines, std::size_t (*match)(std::string_view),
                      int& count) {
  std::size_t texts = 0, tagged = 0;
  for (const auto& l : lines) {
    if (trim(l.text).empty()) continue;
    ++texts;
    tagged += match(l.text) > 0 ? 1 : 0;
  }
  if (tagged < 3 || tagged * 2 < texts) return;
  for (auto& l : lines) {
    const std::size_t cut = match(l.text);
    if (cut == 0) continue;
    l.text.erase(0, cut);
    ++count;
  }
}

void strip_fences(std::vector<PasteLine>& lines, Counts& n) {
  for (auto& l : lines) {
    if (auto rest = paste::fence_rest(l.text)) {
      l.text = *rest;
      ++n[kFences];
    }
  }
}

std::vector<std::string> describe(const Counts& n) {
  static const char* const kWhat[kKinds] = {"a byte order mark",
                                            "Windows line ends (CRLF)",
                                            "terminal escapes",
                                            "lines a terminal wrapped, rejoined:",
                                            "Markdown fences",
                                            "quote markers (`> `)",
                                            "an editor's line numbers",
                                            "mpirun rank tags (`[1,0]<stdout>:`)",
                                            "MPICH rank tags (`[0] `)",
                                            "srun task labels (`0: `)",
                                            "timestamps"};
  std::vector<std::string> out;
  for (std::size_t k = 0; k < kKinds; ++k) {
    if (n[k] == 0) continue;
    if (k == kBom) {
      out.emplace_back(kWhat[k]);
    } else if (k == kWraps) {
      out.push_back(std::string(kWhat[k]) + " " + std::to_string(n[k]));
    } else {
      out.push_back(std::string(kWhat[k]) + " on " + std::to_string(n[k]) +
                    (n[k] == 1 ? " line" : " lines"));
    }
  }
  return out;
}

}  // namespace

NormalisedPaste normalise_paste(std::string_view text) {
  Counts n{};
  std::vector<PasteLine> lines = split_lines(text, n);
  join_hard_wraps(lines, n);
  strip_stacked_prefixes(lines, n);
  strip_line_numbers(lines, n);
  strip_consistent(lines, paste::bracketed_rank, n[kBracketRanks]);
  strip_consistent(lines, paste::task_label, n[kTaskLabels]);
  strip_fences(lines, n);
  return NormalisedPaste{std::move(lines), describe(n)};
}

std::string paste_text(const NormalisedPaste& paste, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end && i < paste.lines.size(); ++i)
    out += paste.lines[i].text + "\n";
  return out;
}

}  // namespace p2p::import
