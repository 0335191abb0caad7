// The outputs CI systems and monitoring read, shared by every subcommand that offers them:
// `--junit FILE` (JUnit XML, written atomically), `--jsonl FILE|-` (JSON lines as they
// happen, see report/run_lines.hpp) and the host name they are filed under.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/json_lines.hpp"

#include "report/check_cases.hpp"

namespace p2p::cli {

// This host's name (gethostname), "" when it cannot be read.
std::string this_hostname();

void add_junit_option(CLI::App* app, std::string& path);

// Writes the cases as JUnit XML to `path` ("-": stdout), atomically; nothing when path is "".
void write_junit(const std::string& path, std::vector<report::CheckSuite> suites);

void add_jsonl_option(CLI::App* app, std::string& path);

// The stream, opened now (a bad path fails before any work), or null when path is "".
std::unique_ptr<JsonLines> open_jsonl(const std::string& path);

}  // namespace p2p::cli
