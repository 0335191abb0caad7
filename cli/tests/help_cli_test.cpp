// First contact with the built executable: every command's --help (walked from the top, as a
// newcomer would) has examples, plain placeholders and no build path; a mistyped command or
// option gets one line naming the nearest real one; --version lists the optional parts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/tests/help_walk.hpp"
#include "common/file_io.hpp"
#include "common/testing/run_captured.hpp"

namespace {

using p2p::testing::CliResult;
using p2p::testing::command_paths;
using p2p::testing::help_of;
using p2p::testing::p2pcheck;

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Help, EveryCommandIsWalkedAndNestedOnesToo) {
  const std::vector<std::string> paths = command_paths();
  for (const char* expected : {"doctor", "topo", "topo diff", "gate", "vm plan", "vm compare",
                               "bench", "nccl", "nccl transports", "import", "compare", "report",
                               "export", "check", "infer", "node", "merge", "cluster"}) {
    EXPECT_NE(std::find(paths.begin(), paths.end(), expected), paths.end()) << expected;
  }
  for (const auto& p : paths) EXPECT_EQ(p.find("-rank"), std::string::npos) << "internal: " << p;
}

TEST(Help, EachHasExamplesOfItselfAndNoTypeWordsNorBuildPaths) {
  const std::string exe_dir = std::filesystem::path(P2PCHECK_EXE).parent_path().string();
  const std::regex type_word(
      R"(\b(TEXT|INT|UINT|FLOAT|BOOLEAN|NUMBER|POSITIVE|NONNEGATIVE|FINITE)\b)");
  for (const std::string& path : command_paths()) {
    const std::string help = help_of(path);
    const std::string name = path.empty() ? "p2pcheck" : "p2pcheck " + path;
    SCOPED_TRACE(name + " --help");
    EXPECT_NE(help.find("Usage: " + name + " "), std::string::npos) << help;
    const std::vector<std::string> examples = p2p::testing::examples_in(help);
    EXPECT_TRUE(std::any_of(examples.begin(), examples.end(),
                            [&name](const std::string& e) { return e.rfind(name + " ", 0) == 0; }))
        << "no example of " << name << "\n"
        << help;
    std::smatch m;
    EXPECT_FALSE(std::regex_search(help, m, type_word)) << "type word " << m.str() << "\n" << help;
    for (const char* noise : {" in [", ":{", " x 2", " x 3"}) {
      EXPECT_EQ(help.find(noise), std::string::npos) << noise << "\n" << help;
    }
    EXPECT_EQ(help.find(P2P_SOURCE_DIR), std::string::npos) << help;
    EXPECT_EQ(help.find(exe_dir), std::string::npos) << help;
  }
}

// The help with every run of spaces and newlines made one space: what a wrapped help says.
std::string unwrapped(const std::string& help) {
  std::string out;
  for (char c : help) {
    const bool space = c == ' ' || c == '\n';
    if (space && !out.empty() && out.back() == ' ') continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST(Help, DefaultsAndRangesAreShownInWords) {
  const std::string nccl = unwrapped(help_of("nccl"));
  EXPECT_NE(nccl.find("-n,--iters N"), std::string::npos) << nccl;
  EXPECT_TRUE(std::regex_search(
      nccl,
      std::regex(R"(timed iterations per size \(median reported\) \(1 to 100000; default: \d+\))")))
      << nccl;
  const std::string bench = unwrapped(help_of("bench"));
  EXPECT_NE(bench.find("--host-memory pinned|hugepages"), std::string::npos) << bench;
  EXPECT_NE(bench.find("(0.1 to 3600; default: 45)"), std::string::npos) << bench;
}

// Every help fits 100 columns where no terminal says otherwise (the examples, to be copied whole,
// excepted) and ends with the exit codes its command can give, as the docs' table lists them.
TEST(Help, EveryHelpFitsAHundredColumnsAndListsItsExitCodesAsTheDocsDo) {
  const std::string table =
      p2p::read_text_file(std::string(P2P_SOURCE_DIR) + "/docs/outputs-and-exit-codes.md");
  for (const std::string& path : command_paths()) {
    const std::string help = help_of(path);
    SCOPED_TRACE("p2pcheck " + path + " --help");
    std::istringstream in(help);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("  p2pcheck ", 0) == 0 || line.rfind("  mpirun ", 0) == 0) continue;
      EXPECT_LE(line.size(), 100u) << line;
    }
    const auto codes = help.find("\nExit codes (the same on every command):\n");
    ASSERT_NE(codes, std::string::npos) << help;
    EXPECT_NE(help.find("\n  2      bad input", codes), std::string::npos);
    // Each row of the docs' table names the commands it applies to (or says every command).
    std::istringstream rows(table.substr(table.find("| code | meaning | commands |")));
    std::string row;
    std::getline(rows, row);
    std::getline(rows, row);
    while (std::getline(rows, row) && row.rfind("| ", 0) == 0) {
      const std::string code = row.substr(2, row.find(' ', 2) - 2);
      const std::string commands = row.substr(row.rfind(" | ") + 3);
      const bool every = commands.find("every command") != std::string::npos;
      const bool named = !path.empty() && commands.find("`" + path + "`") != std::string::npos;
      const bool shown = help.find("\n  " + code + " ", codes) != std::string::npos;
      if (path.empty() || every || named) {
        EXPECT_TRUE(shown) << "exit " << code << " is the docs' for this command";
      } else if (path.find(' ') == std::string::npos && path != "vm" && path != "hw" &&
                 path != "topo") {
        EXPECT_FALSE(shown) << "exit " << code << " is not in the docs' row for this command";
      }
    }
  }
}

// One name per idea: the old names keep working, hidden from --help, with one line saying the new.
TEST(Renamed, OldOptionNamesStillWorkAndSayTheirNewName) {
  // A filter that selects nothing stops the run before any GPU is touched (or, built without
  // NCCL, the command says so): either way after the old name was parsed.
  const CliResult r = p2pcheck("nccl --dtypes float32 --benchmark_filter=^no-such-case$");
  EXPECT_NE(r.err.find("p2pcheck: warning: nccl: --dtypes is deprecated; use --dtype\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("--dtypes:"), std::string::npos) << "the old name is accepted: " << r.err;
  EXPECT_EQ(r.err.find("unknown option"), std::string::npos) << r.err;
  for (const auto& [command, old_name] : std::vector<std::pair<std::string, std::string>>{
           {"nccl", "--dtypes"}, {"merge", "--golden"}})
    EXPECT_EQ(help_of(command).find(old_name + " "), std::string::npos) << command;
  EXPECT_NE(help_of("nccl").find("--dtype "), std::string::npos);
  EXPECT_NE(help_of("merge").find("--expect FILE"), std::string::npos);
  for (const auto& [command, old_name] : std::vector<std::pair<std::string, std::string>>{
           {"topo", "--save"}, {"report", "--out"}, {"export", "--to"}, {"export", "--out"}})
    EXPECT_EQ(help_of(command).find(old_name + " "), std::string::npos) << command;
}

// One flag per output kind across the commands: an option that writes a file is named by what it
// writes (--json a document, --html a page, --junit, --jsonl, --prom), or is a file of one tool
// (doctor's facts, NCCL's log and topology file, a fleet's line directory). A new command that
// writes through --out or --save fails here.
TEST(OutputFlags, EveryOptionThatWritesAFileIsNamedByItsKind) {
  const std::vector<std::string> kinds = {"--json",     "--html",      "--junit",
                                          "--jsonl",    "--prom",      "--save-facts",
                                          "--nccl-log", "--nccl-topo", "--lines-dir"};
  const std::regex option(
      R"(^\s+(--[a-z0-9-]+)\b[^\n]*?\s{2,}(Also write|Write|write|keep|HTML file to write)\b)");
  int outputs = 0;
  for (const auto& path : command_paths()) {
    std::istringstream help(help_of(path));
    for (std::string line; std::getline(help, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, option)) continue;
      ++outputs;
      EXPECT_NE(std::find(kinds.begin(), kinds.end(), m[1].str()), kinds.end())
          << "p2pcheck " << path << ": " << line;
    }
  }
  EXPECT_GE(outputs, 30) << "the walk found the commands' outputs";
  for (const auto& [command, flag] :
       std::vector<std::pair<std::string, std::string>>{{"topo", "--json FILE"},
                                                        {"report", "--html FILE"},
                                                        {"export", "--junit FILE"},
                                                        {"export", "--prom FILE"},
                                                        {"doctor", "--json FILE"}})
    EXPECT_NE(help_of(command).find(flag), std::string::npos) << command << " " << flag;
}

TEST(DidYouMean, AMistypedCommandIsOneLineNamingTheNearestAndExitTwo) {
  const CliResult r = p2pcheck("benchh");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "p2pcheck: error: unknown command 'benchh'; did you mean 'bench'?\n");
  EXPECT_EQ(r.out, "");
  const CliResult nested = p2pcheck("topo difff a.xml b.xml");
  EXPECT_EQ(nested.exit_code, 2);
  EXPECT_EQ(nested.err,
            "p2pcheck: error: unknown command 'topo difff'; did you mean 'topo diff'?\n");
  const CliResult none = p2pcheck("frobnicate");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err,
            "p2pcheck: error: unknown command 'frobnicate' (p2pcheck --help lists the commands)\n");
  const CliResult bare = p2pcheck("vm");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_EQ(bare.err, "p2pcheck: error: 'p2pcheck vm' needs a command: plan, compare, verify\n");
}

TEST(DidYouMean, AMistypedOptionNamesTheNearestBeforeAnyWork) {
  const CliResult r = p2pcheck("compare --tolerance 3 a.json b.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err,
      "p2pcheck: error: compare: unknown option '--tolerance'; did you mean '--tolerance-pct'?\n");
  // bench passes Google Benchmark's flags on, and still catches a typo of its own (even where
  // the build cannot measure: it is bad input first).
  const CliResult bench = p2pcheck("bench --sampels 5");
  EXPECT_EQ(bench.exit_code, 2);
  EXPECT_EQ(bench.err,
            "p2pcheck: error: bench: unknown option '--sampels'; did you mean '--samples'?\n");
  const CliResult gate = p2pcheck("gate --polcy x.json");
  EXPECT_EQ(gate.exit_code, 2);
  EXPECT_EQ(gate.err,
            "p2pcheck: error: gate: unknown option '--polcy'; did you mean '--policy'?\n");
  // Other mistakes keep CLI11's words, on one line.
  const CliResult range = p2pcheck("bench --samples 0");
  EXPECT_EQ(range.exit_code, 2);
  EXPECT_EQ(lines(range.err), 1) << range.err;
  EXPECT_NE(range.err.find("--samples"), std::string::npos) << range.err;
}

TEST(Version, ListsEveryOptionalPartOnALineOfItsOwn) {
  const CliResult r = p2pcheck("--version");
  EXPECT_EQ(r.exit_code, 0);
  std::istringstream in(r.out);
  std::vector<std::string> got;
  for (std::string line; std::getline(in, line);) got.push_back(line);
  ASSERT_EQ(got.size(), 5u) << r.out;
  EXPECT_TRUE(std::regex_match(got[0], std::regex(R"(p2pcheck \d+\.\d+\.\d+)"))) << got[0];
  const auto says_no = [](const std::string& line) {
    return line.find(": no") != std::string::npos;
  };
  EXPECT_EQ(got[1].rfind("CUDA: ", 0), 0u);
  EXPECT_EQ(says_no(got[1]), !P2P_HAVE_CUDA) << got[1];
  EXPECT_EQ(got[2].rfind("NCCL: ", 0), 0u);
  EXPECT_EQ(says_no(got[2]), !P2P_HAVE_NCCL) << got[2];
  EXPECT_EQ(got[3].rfind("MPI: ", 0), 0u);
  EXPECT_EQ(says_no(got[3]), !P2P_HAVE_MPI) << got[3];
  EXPECT_EQ(got[4].rfind("sanitizers: ", 0), 0u);
  if (P2P_HAVE_CUDA)
    EXPECT_TRUE(std::regex_search(got[1], std::regex(R"(toolkit \d+\.\d+)"))) << got[1];
}

}  // namespace
