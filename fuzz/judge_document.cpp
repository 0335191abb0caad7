// A results document given to `judge` with the default acceptance policy: read, its figures that
// mean nothing on this host marked, every rule run over it, and the verdict written as text and
// JSON as `judge` prints it.
#include "acceptance/judge.hpp"
#include "common/file_io.hpp"
#include "document/bench_document.hpp"
#include "document/verdict.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    doc::BenchDocument d =
        doc::bench_document_from_json(parse_json_text(text, fuzz::kSource), fuzz::kSource);
    accept::mark_not_meaningful(d);
    d.verdict.reset();  // judged now, as judge does, not the verdict the document carries
    const doc::RunVerdict v = accept::verdict_of(d, "judge");
    (void)doc::format_verdict(v, "judge");
    (void)nlohmann::json(v).dump();
  });
}
