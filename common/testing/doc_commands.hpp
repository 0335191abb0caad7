// The commands a page of docs/ quotes, so that a test can run each one as the page shows it.
// A command is a line of a ```sh block that starts with "p2pcheck "; its expected exit code is
// 0, or N where the line ends in "# exit N" (a note may follow: "# exit 1 here: no GPU").
// Lines of ```text blocks are output or launcher lines, never run. Header-only; test code only.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace p2p::testing {

struct DocCommand {
  std::string line;     // as the page has it, comment included
  std::string command;  // without the comment
  int exit_code = 0;    // what the page says it exits with
  bool host_dependent;  // "# exit N here": the result of a host without a GPU
};

inline std::vector<DocCommand> doc_commands(const std::string& markdown) {
  static const std::regex exit_note(R"(\s+#\s*exit\s+(\d+)(\s+here)?.*$)");
  std::vector<DocCommand> out;
  std::istringstream in(markdown);
  bool in_sh = false;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("```", 0) == 0) {
      in_sh = !in_sh && l == "```sh";
      continue;
    }
    if (!in_sh || l.rfind("p2pcheck ", 0) != 0) continue;
    DocCommand c{l, l, 0, false};
    std::smatch m;
    if (std::regex_search(l, m, exit_note)) {
      c.command = l.substr(0, static_cast<std::size_t>(m.position(0)));
      c.exit_code = std::stoi(m[1].str());
      c.host_dependent = m[2].matched;
    } else if (const auto hash = l.find("  #"); hash != std::string::npos) {
      c.command = l.substr(0, hash);
    }
    out.push_back(c);
  }
  return out;
}

// Runs every command of the page `page` (relative to `source`) with `exe` for `p2pcheck`, from a
// scratch folder where each entry of `source` stands as a link: the paths the page names are
// the repository's, and what the commands write lands in the scratch folder. A command whose
// result the page gives for a host without a GPU runs only where no NVIDIA device is visible.
// Returns how many ran.
inline int expect_doc_commands_run(const std::string& source, const std::string& page,
                                   const std::string& exe) {
  namespace fs = std::filesystem;
  const auto text = try_read_text_file(source + "/" + page);
  EXPECT_TRUE(text) << page << ": cannot read";
  if (!text) return 0;
  const TempDir scratch("p2p_docs");
  for (const auto& entry : fs::directory_iterator(source)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("build", 0) != 0 && name != ".git")
      fs::create_symlink(entry.path(), fs::path(scratch.path()) / name);
  }
  const bool gpu_visible = fs::exists("/dev/nvidiactl");
  int ran = 0;
  for (const DocCommand& c : doc_commands(*text)) {
    if (c.host_dependent && gpu_visible) continue;
    SCOPED_TRACE(page + ": " + c.line);
    const CliResult r = run_captured("cd '" + scratch.path() + "' && timeout 120 " + exe +
                                     c.command.substr(std::string("p2pcheck").size()));
    EXPECT_EQ(r.exit_code, c.exit_code) << r.out << r.err;
    // Whatever it exits with, it says something: a verdict, a plan or one line of error.
    EXPECT_FALSE(r.out.empty() && r.err.empty());
    ++ran;
  }
  return ran;
}

}  // namespace p2p::testing
