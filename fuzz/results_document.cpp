// A results document (bench --json or nccl --json) given to `report` and `compare`: read, its
// NCCL section read, rendered as HTML, and compared with itself as text and JSON.
#include "common/file_io.hpp"
#include "document/bench_document.hpp"
#include "fuzz/fuzz_input.hpp"
#include "report/compare.hpp"
#include "report/html_report.hpp"
#include "report/nccl_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const auto doc =
        doc::bench_document_from_json(parse_json_text(text, fuzz::kSource), fuzz::kSource);
    if (doc.nccl) {
      const doc::NcclResultsSection r = doc::nccl_section_of(doc, fuzz::kSource);
      (void)report::format_results_table(r.run);
      (void)report::format_transport_matrix(r.run);
      (void)report::format_pair_matrix(r.run);
      (void)report::format_verdicts(r.verdicts);
    }
    (void)report::render_html_report(doc, fuzz::kSource);
    report::CompareOptions options;
    options.min_bytes = 0;
    options.allow_logical = true;
    const report::Comparison c = report::compare_runs(doc, doc, options);
    (void)report::logical_gpus_lines(doc, doc);
    (void)report::format_comparison(c, "baseline", "run", options);
  });
}
