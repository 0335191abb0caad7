// `p2pcheck import` without its command line: peer tools' outputs read and parsed, every one
// before anything is written (one bad file, nothing written), into one results document, saved
// atomically where asked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "document/bench_document.hpp"
#include "import/import_document.hpp"

namespace p2p::session {

struct ImportRequest {
  std::vector<std::string> files;
  std::string json;                    // write the results document here ("" = no)
  std::string buffer_size;             // nvbandwidth -b of the run, as a size: "512M"
  std::uint64_t num_elems = 40000000;  // p2pBandwidthLatencyTest --numElems of the run
  std::string collective;              // nccl-tests tables that do not name it
  std::string tool;                    // read only this tool's tables ("" = every tool's)
};

struct ImportOutcome {
  std::vector<import::ImportedPaste> files;    // one per file, in order
  std::vector<import::ImportedFigures> parts;  // every file's sections, in order
  doc::BenchDocument document;
};

// InputError naming the file or option that cannot be read.
ImportOutcome run_import(const ImportRequest& r);

}  // namespace p2p::session
