// A document given to `p2pcheck export`: a results document, a gate decision or a doctor report,
// read and written as JUnit XML and as a Prometheus textfile.
#include "report/export_input.hpp"

#include "common/file_io.hpp"
#include "fuzz/fuzz_input.hpp"
#include "report/junit.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const report::ExportInput in = report::read_export_input(parse_json_text(text, fuzz::kSource),
                                                             fuzz::kSource, "fuzz-host", false);
    (void)report::render_junit(report::export_suites(in));
    (void)report::export_prometheus(in, 1.8e9);
  });
}
