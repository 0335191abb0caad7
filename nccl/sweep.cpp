#include "nccl/sweep.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "common/error.hpp"

namespace p2p::nccl {

std::vector<std::uint64_t> sweep_sizes(const SweepSpec& spec) {
  if (spec.min_bytes == 0) throw InputError("--min-bytes: must be at least 1");
  if (spec.min_bytes > spec.max_bytes) {
    throw InputError("--min-bytes: " + std::to_string(spec.min_bytes) + " is above --max-bytes " +
                     std::to_string(spec.max_bytes));
  }
  if (spec.step_factor < 2) throw InputError("--step-factor: must be 2 or more");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = spec.min_bytes; s <= spec.max_bytes;) {
    sizes.push_back(s);
    if (s > std::numeric_limits<std::uint64_t>::max() / spec.step_factor) break;
    s *= spec.step_factor;
  }
  return sizes;
}

std::uint64_t parse_bytes(const std::string& text, const std::string& what) {
  const auto bad = [&]() {
    return InputError(what + ": `" + text + "` is not a size (expected e.g. 8, 64K, 1M, 1G)");
  };
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 19) throw bad();
  const std::uint64_t number = std::stoull(text.substr(0, i));
  std::string unit = text.substr(i);
  for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  std::uint64_t multiplier = 1;
  if (unit.empty() || unit == "B") {
    multiplier = 1;
  } else if (unit == "K" || unit == "KB" || unit == "KIB") {
    multiplier = 1ull << 10;
  } else if (unit == "M" || unit == "MB" || unit == "MIB") {
    multiplier = 1ull << 20;
  } else if (unit == "G" || unit == "GB" || unit == "GIB") {
    multiplier = 1ull << 30;
  } else {
    throw bad();
  }
  if (number > std::numeric_limits<std::uint64_t>::max() / multiplier) throw bad();
  return number * multiplier;
}

std::string format_bytes(std::uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  std::uint64_t value = bytes;
  while (unit < 4 && value >= 1024 && value % 1024 == 0) {
    value /= 1024;
    ++unit;
  }
  return std::to_string(value) + " " + kUnits[unit];
}

std::vector<int> sample_sizes(int iterations, int samples) {
  iterations = std::max(1, iterations);
  samples = std::clamp(samples, 1, iterations);
  std::vector<int> sizes(static_cast<std::size_t>(samples), iterations / samples);
  for (int s = 0; s < iterations % samples; ++s) ++sizes[static_cast<std::size_t>(s)];
  return sizes;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2.0;
}

}  // namespace p2p::nccl
