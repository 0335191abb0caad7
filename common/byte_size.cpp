#include "common/byte_size.hpp"

#include <cctype>
#include <limits>
#include <stdexcept>

#include "common/error.hpp"
#include "common/text.hpp"

namespace p2p {

std::uint64_t parse_bytes(const std::string& raw, const std::string& what) {
  const std::string text = trim(raw);
  const auto bad = [&]() {
    return InputError(what + ": `" + raw + "` is not a size (expected e.g. 8, 64K, 1M, 1G)");
  };
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 20) throw bad();  // 2^64 - 1 has 20 digits
  std::uint64_t number = 0;
  try {
    number = std::stoull(text.substr(0, digits));
  } catch (const std::out_of_range&) {
    throw bad();
  }
  std::string unit = text.substr(digits);
  for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  std::uint64_t multiplier = 1;
  if (unit.empty() || unit == "B") {
    multiplier = 1;
  } else if (unit == "K" || unit == "KB" || unit == "KIB") {
    multiplier = std::uint64_t{1} << 10;
  } else if (unit == "M" || unit == "MB" || unit == "MIB") {
    multiplier = std::uint64_t{1} << 20;
  } else if (unit == "G" || unit == "GB" || unit == "GIB") {
    multiplier = std::uint64_t{1} << 30;
  } else {
    throw bad();
  }
  if (number > std::numeric_limits<std::uint64_t>::max() / multiplier) throw bad();
  return number * multiplier;
}

std::string format_bytes(std::uint64_t bytes, ByteStyle style) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  const int largest = style == ByteStyle::kSpaced ? 4 : 3;
  int unit = 0;
  std::uint64_t value = bytes;
  while (unit < largest && value >= 1024 && value % 1024 == 0) {
    value /= 1024;
    ++unit;
  }
  return std::to_string(value) + (style == ByteStyle::kSpaced ? " " : "") + kUnits[unit];
}

}  // namespace p2p
