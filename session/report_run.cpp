#include "session/report_run.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "document/bench_document.hpp"
#include "report/compare.hpp"
#include "report/html_report.hpp"
#include "report/side_by_side.hpp"
#include "session/judge_run.hpp"

namespace p2p::session {
namespace {

// run.json -> run.html; anything else gets .html appended.
std::string default_output(const std::string& results) {
  const std::string ext = ".json";
  if (results.size() > ext.size() &&
      results.compare(results.size() - ext.size(), ext.size(), ext) == 0) {
    return results.substr(0, results.size() - ext.size()) + ".html";
  }
  return results + ".html";
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// a/run.json + b/base.json -> a/run-vs-base.html
std::string side_by_side_output(const std::string& a, const std::string& b) {
  const std::string first = default_output(a);
  std::string second = base_name(default_output(b));
  second = second.substr(0, second.size() - 5);  // without ".html"
  return first.substr(0, first.size() - 5) + "-vs-" + second + ".html";
}

}  // namespace

std::string report_output_path(const std::vector<std::string>& results) {
  return results.size() == 2 ? side_by_side_output(results[0], results[1])
                             : default_output(results.at(0));
}

std::string write_report(const ReportRequest& r) {
  if (r.results.empty() || r.results.size() > 2)
    throw InputError("report: give one results document, or two to show side by side");
  std::vector<doc::BenchDocument> docs;
  for (const auto& path : r.results) docs.push_back(doc::read_bench_document_file(path));
  // One page shows the verdict judge gives; two side by side show the comparison's.
  if (docs.size() == 1) settle_verdict(docs[0], r.policy, "report", r.allow_caveats);
  if (docs.size() == 2 && !r.policy.empty())
    for (auto& d : docs) settle_verdict(d, r.policy, "report", r.allow_caveats);
  const std::string html = docs.size() == 2
                               ? report::render_side_by_side(docs[0], r.results[0], docs[1],
                                                             r.results[1], report::CompareOptions{})
                               : report::render_html_report(docs[0], r.results[0]);
  std::string out = r.out.empty() ? report_output_path(r.results) : r.out;
  for (const auto& path : r.results) {
    if (same_file(out, path)) {
      throw InputError(
          out + ": is a results document being read; refusing to overwrite it with the report");
    }
  }
  write_text_file_atomically(out, html);
  return out;
}

}  // namespace p2p::session
