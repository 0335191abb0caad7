// The commands a Markdown page quotes, as docs_commands_test runs them. Test code only.
//
// - In a ```sh block, every line that starts with `p2pcheck` or `build/p2pcheck` is a command
//   (other lines name launchers and schedulers this test cannot run).
// - In a ```text or ```console block, every line that starts with `$ ` is a command, whatever
//   program it runs (a transcript's `echo ... > policy.json` sets up the next one); the lines up
//   to the next `$ ` are its output, and a line `exit N` among them is its documented exit code.
//   Only in ```console blocks is the output itself checked: each documented line must appear, in
//   order, in what the command printed ("..." alone skips lines; "..." inside a line skips text).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace p2p::testing {

struct QuotedCommand {
  int line = 0;             // 1-based, in the page
  std::string command;      // as bash will run it
  bool is_p2pcheck = true;  // judged; other transcript commands only run
  std::optional<int> documented_exit;
  bool check_output = false;                 // a ```console block
  std::vector<std::string> expected_output;  // the documented lines, "exit N" left out
};

std::vector<QuotedCommand> quoted_commands(const std::string& markdown);

// Whether `expected` lines appear in `actual` in order, with "..." as described above; on a
// miss, `missing` is the first documented line not found.
bool output_matches(const std::vector<std::string>& expected, const std::string& actual,
                    std::string* missing);

}  // namespace p2p::testing
