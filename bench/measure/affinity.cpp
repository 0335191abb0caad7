#include "bench/measure/affinity.hpp"

#include <sched.h>

#include <cerrno>
#include <cstring>

namespace p2p::bench {
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

ScopedCpuAffinity::ScopedCpuAffinity(const std::vector<int>& cpus) {
  if (cpus.empty()) {
    problem_ = "no local CPUs known for this GPU";
    return;
  }
  cpu_set_t old_mask;
  CPU_ZERO(&old_mask);
  if (sched_getaffinity(0, sizeof(old_mask), &old_mask) != 0) {
    problem_ = std::string("sched_getaffinity: ") + std::strerror(errno);
    return;
  }
  previous_.assign(reinterpret_cast<unsigned char*>(&old_mask),
                   reinterpret_cast<unsigned char*>(&old_mask) + sizeof(old_mask));
  saved_ = true;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (int c : cpus) CPU_SET(c, &mask);
  // Only CPUs this process may use: inside a container the GPU's local CPUs may be elsewhere.
  CPU_AND(&mask, &mask, &old_mask);
  if (CPU_COUNT(&mask) == 0) {
    problem_ = "none of the GPU's local CPUs is available to this process";
    return;
  }
  if (sched_setaffinity(0, sizeof(mask), &mask) != 0) {
    problem_ = std::string("sched_setaffinity: ") + std::strerror(errno);
    return;
  }
  applied_ = true;
}

ScopedCpuAffinity::~ScopedCpuAffinity() {
  if (!applied_ || !saved_) return;
  cpu_set_t old_mask;
  std::memcpy(&old_mask, previous_.data(), sizeof(old_mask));
  sched_setaffinity(0, sizeof(old_mask), &old_mask);
}

}  // namespace p2p::bench
