// `p2pcheck compare` without its command line: both results documents read and checked (a
// malformed NCCL section is named by its file, as any other problem of a document), the run
// judged against the baseline, and the exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "report/compare.hpp"

namespace p2p::session {

struct CompareRequest {
  std::string baseline;                 // results document
  std::string run;                      // results document judged against it
  std::optional<double> tolerance_pct;  // nullopt: 5%, or 10% between different tools
  std::string min_bytes = "64M";        // a size, as --min-bytes takes it
  bool allow_logical = false;
  bool common_sizes = false;               // --common-sizes
  std::string allow_missing;               // --allow-missing REASON
  std::vector<std::string> allow_caveats;  // --allow-caveat KIND (interrupted, shared, ...)
};

struct CompareOutcome {
  report::CompareOptions options;
  doc::BenchDocument baseline;
  doc::BenchDocument run;
  report::Comparison comparison;
  std::string host;   // the run's host name, else this host's
  int exit_code = 0;  // the comparison's verdict (document/verdict.hpp exit_code)
};

// InputError naming the file or option that cannot be read.
CompareOutcome run_compare(const CompareRequest& r);

}  // namespace p2p::session
