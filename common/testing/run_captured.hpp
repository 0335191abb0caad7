// For tests that run the built `p2pcheck` as a user would: one shell command, its exit code and
// everything it wrote to stdout and stderr. Header-only; test code only.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

namespace p2p::testing {

struct CliResult {
  int exit_code = -1;  // 128 + signal when it died of one
  std::string out;
  std::string err;
};

// `command` must not redirect stdout or stderr itself. Each call captures into a fresh private
// directory, so tests that ctest runs in parallel processes never read each other's output.
inline CliResult run_captured(const std::string& command) {
  const TempDir dir("p2p_cli");
  const std::string out = dir.file("stdout"), err = dir.file("stderr");
  const int status = std::system((command + " >'" + out + "' 2>'" + err + "'").c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = try_read_text_file(out).value_or("");
  r.err = try_read_text_file(err).value_or("");
  return r;
}

}  // namespace p2p::testing
