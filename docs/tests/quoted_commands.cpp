#include "docs/tests/quoted_commands.hpp"

#include <regex>
#include <sstream>

namespace p2p::testing {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string trim_left(const std::string& s) {
  const std::size_t first = s.find_first_not_of(" \t");
  return first == std::string::npos ? "" : s.substr(first);
}

bool runs_p2pcheck(const std::string& command) {
  return starts_with(command, "p2pcheck ") || starts_with(command, "build/p2pcheck ") ||
         command == "p2pcheck" || command == "build/p2pcheck";
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(trim_right(line));
  return lines;
}

// A documented line with "..." inside matches when its first piece starts the line, its last
// ends it, and those between appear in order; without "..." the lines are equal.
bool line_matches(const std::string& expected, const std::string& actual) {
  std::vector<std::string> pieces;
  for (std::size_t from = 0;;) {
    const std::size_t dots = expected.find("...", from);
    pieces.push_back(expected.substr(from, dots == std::string::npos ? dots : dots - from));
    if (dots == std::string::npos) break;
    from = dots + 3;
  }
  if (pieces.size() == 1) return expected == actual;
  if (!starts_with(actual, pieces.front())) return false;
  std::size_t at = pieces.front().size();
  for (std::size_t i = 1; i + 1 < pieces.size(); ++i) {
    const std::size_t found = actual.find(pieces[i], at);
    if (found == std::string::npos) return false;
    at = found + pieces[i].size();
  }
  const std::string& last = pieces.back();
  return actual.size() >= at + last.size() &&
         actual.compare(actual.size() - last.size(), last.size(), last) == 0;
}

}  // namespace

std::vector<QuotedCommand> quoted_commands(const std::string& markdown) {
  static const std::regex exit_line(R"(^exit (\d+)$)");
  std::vector<QuotedCommand> out;
  std::optional<std::string> fence;  // the open block's info string
  QuotedCommand* current = nullptr;  // the transcript command whose output lines follow
  const std::vector<std::string> lines = split_lines(markdown);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (starts_with(trim_left(line), "```")) {
      fence = fence ? std::nullopt : std::optional<std::string>(trim_left(line).substr(3));
      current = nullptr;
      continue;
    }
    if (!fence) continue;
    if (*fence == "sh") {
      // A line ending in a backslash goes on in the next: `srun ... \` then `p2pcheck ...` is
      // srun's command, not one of ours.
      const int first = static_cast<int>(i + 1);
      std::string text = trim_left(line);
      while (!text.empty() && text.back() == '\\' && i + 1 < lines.size())
        text = text.substr(0, text.size() - 1) + trim_left(lines[++i]);
      if (runs_p2pcheck(text)) out.push_back({first, text, true, {}, false, {}});
      continue;
    }
    if (*fence != "text" && *fence != "console") continue;
    if (starts_with(line, "$ ")) {
      const std::string command = line.substr(2);
      out.push_back(
          {static_cast<int>(i + 1), command, runs_p2pcheck(command), {}, *fence == "console", {}});
      current = &out.back();
      continue;
    }
    if (!current) continue;
    std::smatch m;
    if (std::regex_match(line, m, exit_line))
      current->documented_exit = std::stoi(m[1]);
    else
      current->expected_output.push_back(line);
  }
  return out;
}

bool output_matches(const std::vector<std::string>& expected, const std::string& actual,
                    std::string* missing) {
  const std::vector<std::string> got = split_lines(actual);
  std::size_t at = 0;
  for (const std::string& want : expected) {
    if (want == "..." || want.empty()) continue;
    while (at < got.size() && !line_matches(want, got[at])) ++at;
    if (at == got.size()) {
      if (missing) *missing = want;
      return false;
    }
    ++at;
  }
  return true;
}

}  // namespace p2p::testing
