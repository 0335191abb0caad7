#include "cli/report_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "common/error.hpp"
#include "common/exit_codes.hpp"

#include "common/file_io.hpp"
#include "report/html_report.hpp"

namespace p2p::cli {
namespace {

struct ReportCommandOptions {
  std::string results;
  std::string out;  // empty: the results path with .html for .json
};

// run.json -> run.html; anything else gets .html appended.
std::string default_output(const std::string& results) {
  const std::string ext = ".json";
  if (results.size() > ext.size() && results.compare(results.size() - ext.size(), ext.size(), ext) == 0) {
    return results.substr(0, results.size() - ext.size()) + ".html";
  }
  return results + ".html";
}

int run_report(const ReportCommandOptions& o) {
  const auto doc = bench::bench_document_from_json(read_json_file(o.results), o.results);
  const std::string html = report::render_html_report(doc, o.results);
  const std::string out = o.out.empty() ? default_output(o.results) : o.out;
  if (same_file(out, o.results)) {
    throw InputError(out + ": is the results document being read; refusing to overwrite it with the report");
  }
  write_text_file_atomically(out, html);
  if (out != "-") std::cout << "p2pcheck report: wrote " << out << "\n";
  return kExitOk;
}

}  // namespace

Command add_report_command(CLI::App& root) {
  auto o = std::make_shared<ReportCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "report", "Turn a bench or nccl results document into one HTML page: heatmaps of every matrix, size charts");
  app->add_option("results", o->results, "Results document (p2pcheck bench --json or nccl --json)")->required();
  app->add_option("--out", o->out, "HTML file to write, atomically; - for stdout (default: RESULTS with .html)");
  return Command{app, [o] { return run_report(*o); }};
}

}  // namespace p2p::cli
