// Every p2pcheck command README.md, CONTRIBUTING.md and docs/*.md quote, run by the built
// executable, so that the docs cannot go stale: each page's commands run in order in a scratch
// folder that holds the repository's files and the example files the pages name
// (docs/tests/example-files.txt), with every GPU hidden from CUDA so that bench, nccl and infer
// answer at once everywhere (exit 3 here; on a GPU host they are run by their own tests). A
// command must end with its documented `exit N`, else with 0, 1 (a verdict) or 3 (no usable
// GPU), never 2 (bad input: the docs are out of date) or anything else; a ```console
// transcript must print what it shows. The rules of quoting: docs/tests/quoted_commands.hpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "docs/tests/quoted_commands.hpp"

namespace p2p::testing {
namespace {

namespace fs = std::filesystem;
const std::string kSource = P2P_SOURCE_DIR;
const std::string kExe = P2PCHECK_EXE;

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The scratch folder a page's commands run in: the repository's top-level entries linked in,
// `build/p2pcheck` and `p2pcheck` the built executable, and the example files copied (never
// linked: a command that writes beside its input must not write into the repository).
struct Scratch {
  TempDir dir{"p2p_docs"};
  Scratch() {
    for (const auto& entry : fs::directory_iterator(kSource)) {
      const std::string name = entry.path().filename();
      if (name == "build" || name[0] == '.') continue;
      fs::create_symlink(entry.path(), dir.file(name));
    }
    fs::create_directories(dir.file("build"));
    fs::create_symlink(kExe, dir.file("build/p2pcheck"));
    std::ifstream list(kSource + "/docs/tests/example-files.txt");
    for (std::string line; std::getline(list, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string name, from;
      fields >> name >> from;
      fs::create_directories(fs::path(dir.file(name)).parent_path());
      fs::copy(kSource + "/" + from, dir.file(name),
               fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    }
  }
  CliResult run(const std::string& command) const {
    return run_captured("cd " + quoted(dir.path()) + " && PATH=" + quoted(dir.file("build")) +
                        ":$PATH CUDA_VISIBLE_DEVICES= timeout 120 bash -c " + quoted(command));
  }
};

// The exit code a command ended with: the one it echoed where the page echoes it.
int exit_code_of(const QuotedCommand& q, const CliResult& r) {
  static const std::regex echoed(R"((^|\n)exit (\d+)\n)");
  if (q.command.find("echo \"exit $?\"") == std::string::npos) return r.exit_code;
  std::smatch m;
  return std::regex_search(r.out, m, echoed) ? std::stoi(m[2]) : -1;
}

std::vector<std::string> pages() {
  std::vector<std::string> out = {"README.md", "CONTRIBUTING.md"};
  for (const auto& entry : fs::directory_iterator(kSource + "/docs"))
    if (entry.path().extension() == ".md")
      out.push_back("docs/" + entry.path().filename().string());
  std::sort(out.begin() + 2, out.end());
  return out;
}

class DocsCommands : public ::testing::TestWithParam<std::string> {};

TEST_P(DocsCommands, EveryQuotedCommandRunsAsDocumented) {
  const std::string page = GetParam();
  const std::vector<QuotedCommand> commands = quoted_commands(read_text_file(kSource + "/" + page));
  const Scratch scratch;
  for (const QuotedCommand& q : commands) {
    const CliResult r = scratch.run(q.command);
    if (!q.is_p2pcheck) continue;
    const std::string where = page + ":" + std::to_string(q.line) + ": " + q.command;
    const int code = exit_code_of(q, r);
    if (q.documented_exit) {
      EXPECT_EQ(code, *q.documented_exit) << where << "\n" << r.out << r.err;
    } else {
      EXPECT_TRUE(code == 0 || code == 1 || code == 3) << where << "\nexit " << code << "\n"
                                                       << r.out << r.err;
    }
    std::string missing;
    if (q.check_output)
      EXPECT_TRUE(output_matches(q.expected_output, r.out + r.err, &missing))
          << where << "\nthe page shows a line it did not print:\n  " << missing
          << "\nit printed:\n"
          << r.out << r.err;
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Pages, DocsCommands, ::testing::ValuesIn(pages()), test_name);

// Each page quotes at least one command that runs: a page whose examples are all in a fence
// this test does not read would pass with nothing checked.
TEST(DocsCommands, EveryCommandPageQuotesCommands) {
  for (const std::string& page : pages()) {
    if (page == "CONTRIBUTING.md") continue;  // recipes name files, not commands
    const auto commands = quoted_commands(read_text_file(kSource + "/" + page));
    int runs = 0;
    for (const auto& q : commands) runs += q.is_p2pcheck;
    EXPECT_GT(runs, 0) << page << " quotes no p2pcheck command this test reads";
  }
}

// Every example file the list names exists, so a renamed fixture fails here, by name.
TEST(DocsCommands, EveryExampleFileExists) {
  std::ifstream list(kSource + "/docs/tests/example-files.txt");
  int n = 0;
  for (std::string line; std::getline(list, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, from;
    fields >> name >> from;
    EXPECT_TRUE(fs::exists(kSource + "/" + from)) << name << " <- " << from;
    ++n;
  }
  EXPECT_GT(n, 0);
}

TEST(QuotedCommands, ReadsShellLinesAndTranscriptsWithTheirExitAndOutput) {
  const std::string page =
      "text\n```sh\np2pcheck bench --list   # the cases\nsrun -N 2 \\\n  p2pcheck nccl --mpi\n```\n"
      "```console\n$ echo '{}' > p.json\n$ build/p2pcheck gate --policy p.json; echo \"exit $?\"\n"
      "gate: PASS\n...\nexit 0\n```\n```text\n$ p2pcheck topo\nGPU0\n```\n";
  const auto q = quoted_commands(page);
  ASSERT_EQ(q.size(), 4u);
  EXPECT_EQ(q[0].command, "p2pcheck bench --list   # the cases");
  EXPECT_EQ(q[0].line, 3);
  EXPECT_FALSE(q[1].is_p2pcheck);
  EXPECT_EQ(q[2].documented_exit, 0);
  EXPECT_TRUE(q[2].check_output);
  EXPECT_EQ(q[2].expected_output, (std::vector<std::string>{"gate: PASS", "..."}));
  EXPECT_FALSE(q[3].check_output);
  EXPECT_FALSE(q[3].documented_exit);
}

TEST(QuotedCommands, OutputMatchesInOrderWithElisions) {
  const std::string printed = "a line\nVerdict: healthy on 8 GPU(s), driver 580\nlast\n";
  EXPECT_TRUE(output_matches({"Verdict: healthy ... driver 580", "last"}, printed, nullptr));
  EXPECT_TRUE(output_matches({"a line", "...", "last"}, printed, nullptr));
  std::string missing;
  EXPECT_FALSE(output_matches({"last", "a line"}, printed, &missing));
  EXPECT_EQ(missing, "a line");
  EXPECT_FALSE(output_matches({"Verdict: broken ..."}, printed, &missing));
  EXPECT_FALSE(output_matches({"a lin"}, printed, &missing));  // whole lines, not prefixes
}

}  // namespace
}  // namespace p2p::testing
