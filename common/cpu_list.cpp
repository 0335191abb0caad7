#include "common/cpu_list.hpp"

#include <sched.h>

namespace p2p {
namespace {

std::optional<int> parse_int(const std::string& s) {
  if (s.empty() || s.size() > 6) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::optional<std::vector<int>> parse_cpu_list(const std::string& raw) {
  std::string list = raw;
  while (!list.empty() && (list.back() == '\n' || list.back() == ' ')) list.pop_back();
  std::vector<int> cpus;
  if (list.empty()) return std::nullopt;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string item =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t dash = item.find('-');
    const auto lo = parse_int(item.substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : parse_int(item.substr(dash + 1));
    if (!lo || !hi || *hi < *lo || *hi >= CPU_SETSIZE) return std::nullopt;
    for (int c = *lo; c <= *hi; ++c) cpus.push_back(c);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cpus;
}

}  // namespace p2p
