// The outputs CI systems and monitoring read, shared by every subcommand that offers them:
// JUnit XML (written atomically), JSON lines as they happen (see report/run_lines.hpp) and the
// host name they are filed under. The options that name them are declared in
// cli/machine_outputs.hpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/json_lines.hpp"
#include "report/check_cases.hpp"

namespace p2p::session {

// This host's name (gethostname), "" when it cannot be read.
std::string this_hostname();

// Writes the cases as JUnit XML to `path` ("-": stdout), atomically; nothing when path is "".
void write_junit(const std::string& path, std::vector<report::CheckSuite> suites);
// The same JUnit file, to be written with a command's other outputs (write_text_files_atomically):
// an empty path where `path` is "".
FileToWrite junit_file(const std::string& path, std::vector<report::CheckSuite> suites);

// The stream, opened now (a bad path fails before any work), or null when path is "".
std::unique_ptr<JsonLines> open_jsonl(const std::string& path);

}  // namespace p2p::session
