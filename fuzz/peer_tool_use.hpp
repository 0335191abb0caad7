// What `p2pcheck import` does with one peer tool's figures: one results document, written and
// read back (as compare, report and export then read it). Figures a reader accepts must make
// a document its own reader accepts.
#pragma once

#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "document/bench_document.hpp"
#include "import/import_document.hpp"

namespace p2p::fuzz {

inline void use_imported(const import::ImportedFigures& figures) {
  import::ImportOptions options;
  options.tool_version = "p2pcheck fuzz";
  const doc::BenchDocument doc =
      import::import_document({figures}, options, "2026-12-03T00:00:00Z");
  const std::string text = json_text(nlohmann::json(doc));
  (void)doc::bench_document_from_json(parse_json_text(text, "fuzz-import.json"),
                                      "fuzz-import.json");
}

}  // namespace p2p::fuzz
