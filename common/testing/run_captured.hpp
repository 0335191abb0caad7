// For tests that run the built `p2pcheck` as a user would: one shell command, its exit code and
// everything it wrote to stdout and stderr. Header-only; test code only.
#pragma once

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/file_io.hpp"

namespace p2p::testing {

struct CliResult {
  int exit_code = -1;  // 128 + signal when it died of one
  std::string out;
  std::string err;
};

// `command` must not redirect stdout or stderr itself. Each call captures into a fresh private
// directory, so tests that ctest runs in parallel processes never read each other's output.
inline CliResult run_captured(const std::string& command) {
  char tmpl[] = "/tmp/p2p_cli_XXXXXX";
  CliResult r;
  if (mkdtemp(tmpl) == nullptr) return r;
  const std::string dir = tmpl, out = dir + "/stdout", err = dir + "/stderr";
  const int status = std::system((command + " >'" + out + "' 2>'" + err + "'").c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = try_read_text_file(out).value_or("");
  r.err = try_read_text_file(err).value_or("");
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return r;
}

}  // namespace p2p::testing
