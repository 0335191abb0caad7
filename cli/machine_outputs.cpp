#include "cli/machine_outputs.hpp"

#include "cli/validators.hpp"
#include "common/error.hpp"

namespace p2p::cli {

void add_junit_option(CLI::App* app, std::string& path) {
  app->add_option(
         "--junit", path,
         "Also write every check as a JUnit XML test case to FILE (atomically; - for stdout, text then "
         "goes to stderr): failures carry the cause, skipped cases the reason")
      ->type_name("FILE")
      ->check(file_path());
}

void add_jsonl_option(CLI::App* app, std::string& path) {
  app->add_option(
         "--jsonl", path,
         "Also write one JSON line per item to FILE as each finishes (- for stdout; text then goes to "
         "stderr): a killed run leaves every line written before")
      ->type_name("FILE|-")
      ->check(file_path());
}

std::unique_ptr<JsonLines> open_jsonl_beside(const std::string& path, const std::string& format) {
  if (path == "-" && format == "json")
    throw InputError(
        "--jsonl - and --format json both write to standard output: give --jsonl a file");
  return open_jsonl(path);
}

}  // namespace p2p::cli
