#include "session/compare_run.hpp"

#include "bench/sizes.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "document/bench_document.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {

CompareOutcome run_compare(const CompareRequest& r) {
  CompareOutcome o;
  o.options.tolerance_pct = r.tolerance_pct;
  o.options.min_bytes = bench::parse_size_bytes(r.min_bytes, "--min-bytes");
  o.options.allow_logical = r.allow_logical;
  o.options.common_sizes = r.common_sizes;
  if (r.allow_missing.find_first_not_of(" \t") == std::string::npos && !r.allow_missing.empty())
    throw InputError("--allow-missing: say why the missing figures may be missing");
  o.options.allow_missing = r.allow_missing;
  for (const auto& k : r.allow_caveats)
    o.options.allowed_caveats.insert(doc::caveat_from_string(k, "--allow-caveat"));
  o.baseline = doc::read_bench_document_file(r.baseline);
  o.run = doc::read_bench_document_file(r.run);
  o.comparison = report::compare_runs(o.baseline, o.run, o.options);
  o.host = o.run.hostname.empty() ? this_hostname() : o.run.hostname;
  o.exit_code = doc::exit_code(o.comparison.verdict);
  return o;
}

}  // namespace p2p::session
