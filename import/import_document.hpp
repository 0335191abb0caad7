// `p2pcheck import FILE...`: peer tools' outputs -> one p2pcheck results document
// (p2pcheck.bench.run, written_by "import"), told apart by content.
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
  std::string collective;                                 // nccl-tests output that does not name it
  std::string tool_version;                               // "p2pcheck 0.1.0"
};

// One file, format detected from its content. InputError "<file>: ..." naming what was expected.
ImportedFigures import_text(const std::string& text, const std::string& file,
                            const ImportOptions& options);

// Every file's figures in one document.
doc::BenchDocument import_document(const std::vector<ImportedFigures>& parts,
                                   const ImportOptions& options, const std::string& started_utc);

}  // namespace p2p::import
