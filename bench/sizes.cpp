#include "bench/sizes.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/text.hpp"

namespace p2p::bench {
namespace {

[[noreturn]] void bad(const std::string& what, const std::string& text, const std::string& why) {
  throw InputError(what + ": `" + text + "` " + why);
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

std::uint64_t parse_size_bytes(const std::string& text, const std::string& what) {
  const std::uint64_t bytes = parse_bytes(text, what);
  if (bytes == 0) bad(what, text, "must be larger than 0");
  if (bytes > kMaxSizeBytes) bad(what, text, "is larger than 16GiB");
  if (bytes % 4 != 0) bad(what, text, "is not a multiple of 4 bytes");
  return bytes;
}

std::vector<std::uint64_t> parse_size_list(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (p2p::trim(item).empty()) throw InputError("--sizes: `" + text + "` has an empty entry");
    out.push_back(parse_size_bytes(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int copies_per_batch(std::uint64_t bytes) {
  constexpr std::uint64_t kTargetBatchBytes = kGiB;
  if (bytes == 0) return 4;
  const std::uint64_t wanted = (kTargetBatchBytes + bytes - 1) / bytes;
  return static_cast<int>(std::clamp<std::uint64_t>(wanted, 4, 64));
}

}  // namespace p2p::bench
