// A file as `p2pcheck import` reads it: normalised, its tables found and each read by its tool's
// reader (import_paste), then one results document written and read back, its NCCL section
// included. Every input a paste can hold reaches every reader this way, format detection too.
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "document/bench_document.hpp"
#include "fuzz/fuzz_input.hpp"
#include "import/import_document.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    import::ImportOptions options;
    options.tool_version = "p2pcheck fuzz";
    const import::ImportedPaste p = import::import_paste(text, fuzz::kSource, options);
    const doc::BenchDocument doc =
        import::import_document(p.sections, options, "2026-12-03T00:00:00Z");
    const std::string json = json_text(nlohmann::json(doc));
    const doc::BenchDocument back = doc::bench_document_from_json(
        parse_json_text(json, "fuzz-import.json"), "fuzz-import.json");
    // compare and report read the NCCL section too: what import writes, they must read.
    if (back.nccl) (void)doc::nccl_section_of(back, "fuzz-import.json");
  });
}
