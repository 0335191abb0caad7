#include "cli/report_command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "report/html_report.hpp"
#include "report/side_by_side.hpp"

namespace p2p::cli {
namespace {

struct ReportCommandOptions {
  std::vector<std::string> results;  // one document, or two side by side
  std::string out;  // empty: the results path with .html for .json ("A-vs-B.html" for two)
};

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

int run_report(const ReportCommandOptions& o) {
  if (o.results.empty() || o.results.size() > 2)
    throw InputError("report: give one results document, or two to show side by side");
  std::vector<bench::BenchDocument> docs;
  for (const auto& path : o.results) docs.push_back(bench::read_bench_document_file(path));
  const bool pair = docs.size() == 2;
  const std::string html = pair
                               ? report::render_side_by_side(docs[0], o.results[0], docs[1],
                                                             o.results[1], report::CompareOptions{})
                               : report::render_html_report(docs[0], o.results[0]);
  const std::string out = !o.out.empty() ? o.out
                          : pair         ? side_by_side_output(o.results[0], o.results[1])
                                         : default_output(o.results[0]);
  for (const auto& path : o.results) {
    if (same_file(out, path)) {
      throw InputError(
          out + ": is a results document being read; refusing to overwrite it with the report");
    }
  }
  write_text_file_atomically(out, html);
  if (out != "-") std::cout << "p2pcheck report: wrote " << out << "\n";
  return kExitOk;
}

}  // namespace

Command add_report_command(CLI::App& root) {
  auto o = std::make_shared<ReportCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "report",
      "Turn a bench or nccl results document into one HTML page: heatmaps of every matrix, size charts; "
      "two documents side by side with what changed first");
  app->add_option(
         "results", o->results,
         "Results document (p2pcheck bench --json or nccl --json); two: the first beside the second")
      ->required()
      ->expected(1, 2);
  app->add_option("--out", o->out,
                  "HTML file to write, atomically; - for stdout (default: RESULTS with .html)");
  return Command{app, [o] { return run_report(*o); }};
}

}  // namespace p2p::cli
