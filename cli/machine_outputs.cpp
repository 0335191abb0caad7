#include "cli/machine_outputs.hpp"

#include <unistd.h>

#include "common/file_io.hpp"
#include "report/junit.hpp"

namespace p2p::cli {

std::string this_hostname() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "";
  return host;
}

void add_junit_option(CLI::App* app, std::string& path) {
  app->add_option("--junit", path,
                  "Also write every check as a JUnit XML test case to FILE (atomically): failures carry the cause, "
                  "skipped cases the reason")
      ->type_name("FILE");
}

void write_junit(const std::string& path, std::vector<report::CheckSuite> suites) {
  if (path.empty()) return;
  report::make_case_names_unique(suites);
  write_text_file_atomically(path, report::render_junit(suites));
}

void add_jsonl_option(CLI::App* app, std::string& path) {
  app->add_option("--jsonl", path,
                  "Also write one JSON line per item to FILE as each finishes (- for stdout; text then goes to "
                  "stderr): a killed run leaves every line written before")
      ->type_name("FILE|-");
}

std::unique_ptr<JsonLines> open_jsonl(const std::string& path) {
  if (path.empty()) return nullptr;
  return std::make_unique<JsonLines>(path);
}

}  // namespace p2p::cli
