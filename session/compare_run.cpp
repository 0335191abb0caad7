#include "session/compare_run.hpp"

#include "bench/sizes.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "nccl/results_section.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {

CompareOutcome run_compare(const CompareRequest& r) {
  CompareOutcome o;
  o.options.tolerance_pct = r.tolerance_pct;
  o.options.min_bytes = bench::parse_size_bytes(r.min_bytes, "--min-bytes");
  o.options.allow_logical = r.allow_logical;
  o.baseline = bench::read_bench_document_file(r.baseline);
  o.run = bench::read_bench_document_file(r.run);
  // A malformed NCCL section is named by its file, as any other problem of a document.
  if (!o.baseline.nccl.is_null()) nccl::nccl_section_from_document(o.baseline, r.baseline);
  if (!o.run.nccl.is_null()) nccl::nccl_section_from_document(o.run, r.run);
  o.comparison = report::compare_runs(o.baseline, o.run, o.options);
  o.host = o.run.hostname.empty() ? this_hostname() : o.run.hostname;
  o.exit_code = o.comparison.regressions() > 0 ? kExitFailed : kExitOk;
  return o;
}

}  // namespace p2p::session
