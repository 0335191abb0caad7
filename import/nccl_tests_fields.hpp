// What the readers of nccl-tests' text and -J JSON output share. Internal to import/.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_util.hpp"
#include "common/text_lines.hpp"
#include "import/nccl_tests.hpp"

namespace p2p::import {

inline InputError not_nccl_tests(const std::string& source, const std::string& why) {
  return InputError(source + ": not nccl-tests output: " + why);
}

// A row whose bandwidths are N/A has no figure. A table where every row is so holds no figure at
// all, and comparing or judging it would judge nothing: it is refused, naming the file. ("nan"
// and "inf" are refused earlier, naming their cell.)
inline void require_a_figure(const NcclTestsRun& run, const std::string& source) {
  for (const auto& r : run.rows)
    if (r.algbw_gbps || r.busbw_gbps) return;
  throw not_nccl_tests(source, "every bandwidth of its " + std::to_string(run.rows.size()) +
                                   " result rows is N/A: the table holds no figure");
}

// "./build/all_reduce_perf" or "all_reduce_perf_mpi" -> "all_reduce".
inline std::string collective_of_program(std::string p) {
  const auto slash = p.find_last_of('/');
  if (slash != std::string::npos) p = p.substr(slash + 1);
  const auto perf = p.find("_perf");
  return perf == std::string::npos ? "" : p.substr(0, perf);
}

// A size or element count as printed: a whole number 0..kMaxDocumentBytes. Anything else
// ("1e400", "-5", "2.5") is a mangled row; casting it would be undefined behaviour.
inline std::optional<std::uint64_t> whole_number(double v) {
  if (!std::isfinite(v) || v < 0 || v > static_cast<double>(kMaxDocumentBytes) ||
      v != std::floor(v))
    return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

inline std::optional<std::uint64_t> whole_number(const std::string& t) {
  const auto v = parse_number(t);
  return v ? whole_number(*v) : std::nullopt;
}

// The -J JSON output (nccl-tests 2.17+).
NcclTestsOutput parse_nccl_tests_json(const std::string& text, const std::string& source,
                                      const std::string& collective);

}  // namespace p2p::import
