// `p2pcheck report` without its command line: one results document made into an HTML page, or
// two side by side, written atomically to the file asked for or named after the documents
// (run.json -> run.html; a/run.json beside b/base.json -> a/run-vs-base.html).
#pragma once

#include <string>
#include <vector>

namespace p2p::session {

struct ReportRequest {
  std::vector<std::string> results;        // one document, or two side by side
  std::string out;                         // "" = named after the documents; "-" = stdout
  std::string policy;                      // --policy FILE: each document judged under it
  std::vector<std::string> allow_caveats;  // --allow-caveat KIND: a caveat that does not fail it
};

// The file name a page gets when none is given (exposed for tests).
std::string report_output_path(const std::vector<std::string>& results);

// Writes the page and returns where it went. InputError for no document or more than two, a
// document that cannot be read, or an output that is one of the documents being read.
std::string write_report(const ReportRequest& r);

}  // namespace p2p::session
