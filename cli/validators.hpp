// One validator for every number, size, count and path an option takes, so each command refuses
// the same things the same way, naming the option (CLI11 puts it before the message: "--timeout:
// `nan` is not a number of seconds from 0.001 to 86400"). CLI11's own Range lets NaN through (every
// comparison with NaN is false), and a tolerance, threshold or timeout of NaN would silently
// turn every judgement off; its PositiveNumber takes "inf"; its integer conversion wraps "-1"
// into an unsigned option.
#pragma once

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "common/byte_size.hpp"
#include "common/error.hpp"

namespace p2p::cli {

namespace detail {

// "0.001", "86400", "1e9" as written; "" when integral.
inline std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

inline std::string unit_suffix(const std::string& unit) { return unit.empty() ? "" : " " + unit; }

}  // namespace detail

// A finite number from min to max (both included). NaN, inf, a trailing word, a hexadecimal
// float and anything outside are refused.
inline CLI::Validator number_between(double min, double max, const std::string& unit = "") {
  const std::string range = detail::number_text(min) + " to " + detail::number_text(max);
  return CLI::Validator(
      [min, max, unit, range](std::string& text) -> std::string {
        std::string what = "`" + text + "` is not a number" + (unit.empty() ? "" : " of " + unit) +
                           " from " + range;
        if (text.empty() || text.find_first_of("xXpP") != std::string::npos) return what;
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) return what;
        if (v < min || v > max) return what;
        return "";
      },
      // CLI11's own form ("FLOAT in [0.1 - 3600]"), which --help turns into "(0.1 to 3600)".
      "FLOAT in [" + detail::number_text(min) + " - " + detail::number_text(max) + "]");
}

// Seconds, a finite number from min to max.
inline CLI::Validator seconds_between(double min, double max) {
  return number_between(min, max, "seconds");
}

// A whole number from min to max, written in decimal digits (a sign only on negative minima):
// "1e3", "0x10", "2.5" and "-1" for a count are refused rather than converted or wrapped.
inline CLI::Validator count_between(long long min, long long max, const std::string& unit = "") {
  return CLI::Validator(
      [min, max, unit](std::string& text) -> std::string {
        std::string what = "`" + text + "` is not a whole number from " + std::to_string(min) +
                           " to " + std::to_string(max) + detail::unit_suffix(unit);
        const std::size_t digits_from = !text.empty() && text[0] == '-' ? 1 : 0;
        if (text.size() <= digits_from ||
            text.find_first_not_of("0123456789", digits_from) != std::string::npos)
          return what;
        errno = 0;
        const long long v = std::strtoll(text.c_str(), nullptr, 10);
        if (errno == ERANGE || v < min || v > max) return what;
        return "";
      },
      "INT in [" + std::to_string(min) + " - " + std::to_string(max) + "]");
}

// A byte size as common/byte_size.hpp reads it (8, 64K, 1M, 1G), from min to max bytes.
inline CLI::Validator byte_size_between(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::string what = "`" + text + "` is not a size from " +
                           format_bytes(min, ByteStyle::kCompact) + " to " +
                           format_bytes(max, ByteStyle::kCompact) + " (e.g. 8, 64K, 1M, 1G)";
        try {
          const std::uint64_t v = parse_bytes(text, "size");
          return v < min || v > max ? what : "";
        } catch (const InputError&) {
          return what;
        }
      },
      "");
}

// A comma-separated list of byte sizes, each from min to max.
inline CLI::Validator byte_size_list_between(std::uint64_t min, std::uint64_t max) {
  const CLI::Validator one = byte_size_between(min, max);
  return CLI::Validator(
      [one](std::string& text) -> std::string {
        std::size_t start = 0;
        while (true) {
          const std::size_t comma = text.find(',', start);
          std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
          std::string problem = one(item);
          if (!problem.empty()) return problem;
          if (comma == std::string::npos) return "";
          start = comma + 1;
        }
      },
      "");
}

// A value that must say something: an empty one (`--gpus ''`) is refused, never taken as "not
// given".
inline CLI::Validator not_empty(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        return text.empty() ? "the value is empty; give " + what : "";
      },
      "");
}

// --allow-caveat KIND (repeatable), one list of kinds for every command that judges a run
// whole (judge, compare, merge, report, export): `what` says whose caveat ("of the run", "of a
// host's run").
inline CLI::Option* add_allow_caveat_option(CLI::App* app, std::vector<std::string>& kinds,
                                            const std::string& what) {
  return app
      ->add_option("--allow-caveat", kinds,
                   "A caveat " + what +
                       " that does not fail it: interrupted, shared, logical, unverified, waived "
                       "or gate_override (repeatable)")
      ->check(CLI::IsMember(
          {"interrupted", "shared", "logical", "unverified", "waived", "gate_override"}))
      ->type_name("KIND");
}

// A path to a file: an empty one (`--json ''`) is refused, never taken as "not given".
inline CLI::Validator file_path() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "the path is empty; give a file" : "";
      },
      "");
}

}  // namespace p2p::cli
