// `p2pcheck import FILE...`: peer tools' outputs, whole or pasted in pieces, -> one p2pcheck
// results document (p2pcheck.bench.run, written_by "import"), told apart by content.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "document/bench_document.hpp"
#include "import/imported.hpp"

namespace p2p::import {

struct ImportOptions {
  std::optional<std::uint64_t>
      nvbandwidth_buffer_bytes;  // what `nvbandwidth -b` was (its output does not say)
  std::uint64_t p2p_sample_copy_bytes = 40000000ull * 4;  // p2pBandwidthLatencyTest numElems * 4
  std::string collective;    // nccl-tests tables that do not name it ("" = unknown)
  std::string tool;          // read only this tool's tables (--tool); "" = every tool's
  std::string tool_version;  // "p2pcheck 0.1.0"
};

// One file: what was removed around the tool's text, and a section per run of one tool's tables.
struct ImportedPaste {
  std::vector<std::string> stripped;  // one line per kind: "quote markers (`> `) on 2 lines"
  std::vector<ImportedFigures> sections;
};

// A file's text, whole output or pasted fragment, format and tool told by content (-j / -J JSON
// as one section). InputError "<file>: ..." naming what was looked for when it holds no table,
// "<file> (lines a-b): ..." for a table that is mangled rather than cut.
ImportedPaste import_paste(const std::string& text, const std::string& file,
                           const ImportOptions& options);

// Every file's figures in one document.
doc::BenchDocument import_document(const std::vector<ImportedFigures>& parts,
                                   const ImportOptions& options, const std::string& started_utc);

}  // namespace p2p::import
