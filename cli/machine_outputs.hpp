// The options CI systems and monitoring use, shared by every subcommand that offers them:
// `--junit FILE` (JUnit XML, written atomically) and `--jsonl FILE|-` (JSON lines as they
// happen). What they write is session/machine_outputs.hpp, named here for the commands.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "session/machine_outputs.hpp"

namespace p2p::cli {

using session::open_jsonl;
using session::this_hostname;
using session::write_junit;

void add_junit_option(CLI::App* app, std::string& path);

void add_jsonl_option(CLI::App* app, std::string& path);

// The --jsonl stream of a command that also prints `format` ("text" or "json") to stdout, opened
// now: InputError when both would write to stdout (the JSON would not parse).
std::unique_ptr<JsonLines> open_jsonl_beside(const std::string& path, const std::string& format);

}  // namespace p2p::cli
