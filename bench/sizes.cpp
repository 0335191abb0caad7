#include "bench/sizes.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "common/error.hpp"

namespace p2p::bench {
namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw InputError("--sizes: `" + text + "` " + why);
}

}  // namespace

std::vector<std::uint64_t> power_of_two_sizes(std::uint64_t from_bytes, std::uint64_t to_bytes) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t b = from_bytes; b != 0 && b <= to_bytes; b *= 2) out.push_back(b);
  return out;
}

std::vector<std::uint64_t> default_sweep_bytes() {
  std::vector<std::uint64_t> out;
  for (std::uint64_t b = 4 * kKiB; b <= 256 * kMiB; b *= 4) out.push_back(b);
  out.push_back(512 * kMiB);
  return out;
}

std::uint64_t parse_size_bytes(const std::string& raw) {
  const std::string text = trim(raw);
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) bad(raw, "is not a size (use e.g. 4096, 64K, 64M, 1G)");
  if (digits > 12) bad(raw, "is larger than 16GiB");
  const std::uint64_t number = std::stoull(text.substr(0, digits));
  const std::string unit = lower(trim(text.substr(digits)));
  std::uint64_t scale = 0;
  if (unit.empty() || unit == "b")
    scale = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib")
    scale = kKiB;
  else if (unit == "m" || unit == "mb" || unit == "mib")
    scale = kMiB;
  else if (unit == "g" || unit == "gb" || unit == "gib")
    scale = kGiB;
  else
    bad(raw, "has an unknown unit (use K, M or G)");
  if (number == 0) bad(raw, "must be larger than 0");
  if (number > kMaxSizeBytes / scale) bad(raw, "is larger than 16GiB");
  const std::uint64_t bytes = number * scale;
  if (bytes % 4 != 0) bad(raw, "is not a multiple of 4 bytes");
  return bytes;
}

std::vector<std::uint64_t> parse_size_list(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (trim(item).empty()) throw InputError("--sizes: `" + text + "` has an empty entry");
    out.push_back(parse_size_bytes(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes != 0 && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + "GiB";
  if (bytes != 0 && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + "MiB";
  if (bytes != 0 && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + "KiB";
  return std::to_string(bytes) + "B";
}

int copies_per_batch(std::uint64_t bytes) {
  constexpr std::uint64_t kTargetBatchBytes = kGiB;
  if (bytes == 0) return 4;
  const std::uint64_t wanted = (kTargetBatchBytes + bytes - 1) / bytes;
  return static_cast<int>(std::clamp<std::uint64_t>(wanted, 4, 64));
}

}  // namespace p2p::bench
