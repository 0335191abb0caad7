// `p2pcheck export` without its command line: a results document, gate decision or doctor
// verdict made into JUnit XML or a Prometheus textfile, written atomically.
#pragma once

#include <string>
#include <vector>

namespace p2p::session {

struct ExportRequest {
  std::string document;  // bench/nccl --json, gate --format json or doctor --format json output
  std::string junit;     // --junit FILE|-: JUnit XML ("" = none)
  std::string prom;      // --prom FILE|-: a Prometheus textfile ("" = none)
  std::string hostname;  // "" = the document's own; for gate and doctor output, this host's
  std::string policy;    // --policy FILE: a results document judged under it ("" = its own
                         // verdict, or the default policy's where it stores none)
  std::vector<std::string> allow_caveats;  // --allow-caveat KIND: a caveat that does not fail it
};

// InputError for a document that cannot be read, no output asked for, or an output that is the
// document itself. Both outputs are written together (write_text_files_atomically).
// `now_unix` stands for the run time of gate and doctor output, which carry none.
void write_export(const ExportRequest& r, double now_unix);

}  // namespace p2p::session
