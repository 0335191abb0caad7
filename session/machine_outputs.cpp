#include "session/machine_outputs.hpp"

#include <unistd.h>

#include "common/file_io.hpp"
#include "report/junit.hpp"

namespace p2p::session {

std::string this_hostname() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "";
  return host;
}

void write_junit(const std::string& path, std::vector<report::CheckSuite> suites) {
  write_text_files_atomically({junit_file(path, std::move(suites))});
}

FileToWrite junit_file(const std::string& path, std::vector<report::CheckSuite> suites) {
  if (path.empty()) return {};
  report::make_case_names_unique(suites);
  return {path, report::render_junit(suites)};
}

std::unique_ptr<JsonLines> open_jsonl(const std::string& path) {
  if (path.empty()) return nullptr;
  return std::make_unique<JsonLines>(path);
}

}  // namespace p2p::session
