// Round trip as a property, for tests and fuzz targets: whatever p2pcheck writes from a file it
// was given is read back by the readers that take that document. `import FILE --json` writes a
// results document that `compare` and `report` read; `topo --input CAPTURE --json` writes a
// snapshot that `topo --input` reads. Refusing the file at import (InputError) is allowed; a
// document written and then refused is a fault (std::logic_error naming it). Test code only.
#pragma once

#include <stdexcept>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "document/bench_document.hpp"
#include "import/import_document.hpp"
#include "report/compare.hpp"
#include "report/html_report.hpp"
#include "report/nccl_text.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::testing {

// Runs `read` over what was written; a refusal there is p2pcheck refusing its own document.
template <class Read>
void read_back(const std::string& what, Read read) {
  try {
    read();
  } catch (const InputError& e) {
    throw std::logic_error("p2pcheck refuses the " + what + " it wrote: " + e.what());
  }
}

// compare and report on a results document's text, as they read a file.
inline void read_results_document(const std::string& text, const std::string& name) {
  const doc::BenchDocument doc = doc::bench_document_from_json(parse_json_text(text, name), name);
  if (doc.nccl) {
    const doc::NcclResultsSection r = doc::nccl_section_of(doc, name);
    (void)report::format_results_table(r.run);
    (void)report::format_transport_matrix(r.run);
    (void)report::format_pair_matrix(r.run);
  }
  (void)report::render_html_report(doc, name);
  report::CompareOptions options;
  options.min_bytes = 0;
  options.allow_logical = true;
  (void)report::format_comparison(report::compare_runs(doc, doc, options), name, name, options);
  if (doc.topology) {
    // The topology it holds, saved as `topo --json` would and given back to `topo --input`.
    (void)topo::load_topology_text(topo::snapshot_to_json_text(*doc.topology), name + ".topology");
  }
}

// `import FILE --json OUT`, then compare, report and topo on OUT. Returns the document's size.
inline std::size_t import_write_read_back(const std::string& text, const std::string& file) {
  import::ImportOptions options;
  options.tool_version = "p2pcheck round trip";
  const import::ImportedPaste paste = import::import_paste(text, file, options);
  const doc::BenchDocument doc =
      import::import_document(paste.sections, options, "2026-12-03T00:00:00Z");
  const std::string written = json_text(nlohmann::json(doc)) + "\n";
  read_back("results document", [&] { read_results_document(written, file + ".json"); });
  return written.size();
}

// `topo --input FILE --json OUT`, then `topo --input OUT`: the snapshot reads back as it was.
inline void topology_write_read_back(const std::string& text, const std::string& file) {
  const topo::TopologySnapshot t = topo::load_topology_text(text, file);
  const std::string written = topo::snapshot_to_json_text(t);
  read_back("topology snapshot", [&] {
    const topo::TopologySnapshot back = topo::load_topology_text(written, file + ".snapshot.json");
    if (topo::snapshot_to_json_text(back) != written)
      throw std::logic_error(file + ": the saved snapshot does not read back as it was written");
  });
}

}  // namespace p2p::testing
