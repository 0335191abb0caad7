// `p2pcheck export` without its command line: a results document, gate decision or doctor
// verdict made into JUnit XML or a Prometheus textfile, written atomically.
#pragma once

#include <string>

namespace p2p::session {

struct ExportRequest {
  std::string document;  // bench/nccl --json, gate --format json or doctor --format json output
  std::string to;        // "junit" or "prometheus"
  std::string out = "-";
  std::string hostname;  // "" = the document's own; for gate and doctor output, this host's
  std::string policy;    // --policy FILE: a results document judged under it ("" = its own
                         // verdict, or the default policy's where it stores none)
};

// InputError for a document that cannot be read or an output that is the document itself.
// `now_unix` stands for the run time of gate and doctor output, which carry none.
void write_export(const ExportRequest& r, double now_unix);

}  // namespace p2p::session
