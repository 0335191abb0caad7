// The built executable against the cases of an audit: outputs that named the command's own input
// (each overwrote it, exit 0), options that took NaN, outputs silently skipped or mixed into
// standard output. Every case now ends in one line on stderr naming the option or the file, with
// exit 2 (the user's) or 4 (the system's), and no input changes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

namespace fs = std::filesystem;
using p2p::testing::CliResult;

const std::string kExe = P2PCHECK_EXE;
const std::string kSource = P2P_SOURCE_DIR;
const std::string kRun = kSource + "/results/h200-vm-2026-12-02/";
const std::string kPolicy = kSource + "/results/policies/single-gpu-smoke.json";
const std::string kLines = kSource + "/cluster/tests/fixtures/lines/";
const std::string kNcclTests =
    kSource + "/import/tests/fixtures/nccl-tests-2.19.6-h200-all_reduce.txt";

CliResult run(const std::string& args) { return p2p::testing::run_captured(kExe + " " + args); }

int lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

class OutputPolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy_file(kRun + "h200-bench.json", path("base.json"));
    fs::copy_file(kRun + "h200-bench.json", path("run.json"));
    fs::copy_file(kRun + "h200-facts.json", path("facts.json"));
    fs::copy_file(kRun + "h200-topology.json", path("topo.json"));
    fs::copy_file(kSource + "/import/tests/fixtures/h200-topo-m.txt", path("capture.txt"));
    fs::copy_file(kNcclTests, path("cap.txt"));
    fs::copy_file(kLines + "node-a.jsonl", path("a.jsonl"));
    fs::copy_file(kLines + "node-b.jsonl", path("b.jsonl"));
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // Runs `args` and checks: exit `code`, one line naming `named`, `input` unchanged.
  void expect_refused(const std::string& args, const std::string& input, const std::string& named,
                      int code = 2) {
    const std::string before = p2p::read_text_file(path(input));
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, code) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(p2p::read_text_file(path(input)), before) << args << " changed " << input;
  }
  p2p::TempDir tmp_{"p2p_output_policy"};
  fs::path dir_{tmp_.path()};
};

TEST_F(OutputPolicy, NoOutputOverwritesTheCommandsOwnInput) {
  const std::string gate = "gate --input " + path("topo.json") + " --policy " + kPolicy;
  const std::string check = "check --quick --facts " + path("facts.json") + " --input " + kSource +
                            "/topology/tests/fixtures/h200-vm.xml";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"compare " + path("base.json") + " " + path("run.json") + " --junit " + path("base.json"),
       "base.json"},
      {"import " + path("cap.txt") + " --json " + path("cap.txt"), "cap.txt"},
      {"merge " + path("a.jsonl") + " " + path("b.jsonl") + " --json " + path("a.jsonl"),
       "a.jsonl"},
      {"merge " + path("a.jsonl") + " " + path("b.jsonl") + " --junit " + path("b.jsonl"),
       "b.jsonl"},
      {gate + " --junit " + path("topo.json"), "topo.json"},
      {gate + " --jsonl " + path("topo.json"), "topo.json"},
      {"doctor --facts " + path("facts.json") + " --junit " + path("facts.json"), "facts.json"},
      {check + " --junit " + path("facts.json"), "facts.json"},
      {check + " --prom " + path("facts.json"), "facts.json"},
      {"topo --input " + path("capture.txt") + " --json " + path("capture.txt"), "capture.txt"},
      {"doctor --facts " + path("facts.json") + " --jsonl " + path("facts.json"), "facts.json"},
      {"export " + path("run.json") + " --junit " + path("run.json"), "run.json"},
      {"report " + path("run.json") + " --html " + path("run.json"), "run.json"},
  };
  for (const auto& [args, input] : cases)
    expect_refused(args, input, "refusing to overwrite an input");
}

TEST_F(OutputPolicy, HardAndSymbolicLinksToAnInputAreTheInput) {
  fs::create_hard_link(path("facts.json"), path("hard.json"));
  fs::create_symlink("facts.json", path("sym.json"));
  expect_refused("doctor --facts " + path("facts.json") + " --save-facts " + path("hard.json"),
                 "facts.json", "is a hard link to the input " + path("facts.json"));
  expect_refused("doctor --facts " + path("facts.json") + " --jsonl " + path("sym.json"),
                 "facts.json", "is a symbolic link to the input " + path("facts.json"));
  expect_refused("import " + path("cap.txt") + " --json " + dir_.string() + "/./cap.txt", "cap.txt",
                 "is the input " + path("cap.txt"));
}

TEST_F(OutputPolicy, NanInfAndAbsurdNumbersAreRefusedNamingTheOption) {
  const std::string merge = "merge " + kLines + "node-a.jsonl " + kLines + "node-b.jsonl ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bench --init-timeout nan", "--init-timeout: `nan` is not a number of seconds"},
      {"nccl --init-timeout inf", "--init-timeout: `inf` is not a number of seconds"},
      {merge + "--z-threshold nan", "--z-threshold: `nan` is not a number"},
      {"cluster --z-threshold -nan", "--z-threshold: `-nan` is not a number"},
      {"nccl --timeout nan", "--timeout: `nan` is not a number of seconds"},
      {"nccl --min-busbw inf", "--min-busbw: `inf` is not a number of GB/s"},
      {"nccl --min-bytes -1", "--min-bytes: `-1` is not a size"},
      {"nccl --iters 1e3", "--iters: `1e3` is not a whole number"},
      {"infer --list --hidden 4096 --timeout nan", "--timeout: `nan` is not a number of seconds"},
      {"infer --list --hidden -1", "--hidden: `-1` is not a whole number"},
      {"check --quick --probe-timeout nan", "--probe-timeout: `nan` is not a number of seconds"},
      {"node --jsonl x --probe-timeout 0x10", "--probe-timeout: `0x10` is not a number of seconds"},
      {"cluster --deadline nan", "--deadline: `nan` is not a number of seconds"},
      {"bench --sizes 64M,nan", "--sizes: `nan` is not a size"},
      {"import " + kNcclTests + " --num-elems -1", "--num-elems: `-1` is not a whole number"},
      {"import " + kNcclTests + " --buffer-size inf", "--buffer-size: `inf` is not a size"},
      {"compare " + kRun + "h200-bench.json " + kRun + "h200-bench.json --min-bytes nan",
       "--min-bytes: `nan` is not a size"},
  };
  for (const auto& [args, named] : cases) {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << args << "\n" << r.err;
  }
}

TEST_F(OutputPolicy, AnOutputThatCannotBeMadeIsAnErrorNeverASilentSkip) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"infer --list --hidden 4096 --json " + path("F.json") + " --html " + path("G.html"),
       "--json: infer --list prints the plan and measures nothing"},
      {"bench --list --json " + path("F.json"), "--json: bench --list measures nothing"},
      {"import " + kNcclTests + " --json ''", "--json: the path is empty"},
      {"gate --input " + path("topo.json") + " --policy " + kPolicy + " --junit ''",
       "--junit: the path is empty"},
      {"import " + kNcclTests + " --json " + path("no/such/dir/x.json"),
       "the directory " + path("no/such/dir") + " does not exist"},
      {"import " + kNcclTests + " --json " + dir_.string(), "is a directory"},
  };
  for (const auto& [args, named] : cases) {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(named), std::string::npos) << args << "\n" << r.err;
  }
  EXPECT_FALSE(fs::exists(path("F.json")));
  EXPECT_FALSE(fs::exists(path("G.html")));
}

// `-` is standard output for one output; the text for people then moves to stderr, and where
// stdout carries the command's own JSON no output may take it.
TEST_F(OutputPolicy, StandardOutputCarriesOneThingAtATime) {
  const std::string gate = "gate --input " + path("topo.json") + " --policy " + kPolicy;
  CliResult r = run(gate + " --format json --junit -");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--junit -: standard output already carries --format json"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  r = run(gate + " --junit -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<?xml", 0), 0u) << r.out;
  EXPECT_NE(r.err.find("gate: PASS"), std::string::npos) << r.err;
  r = run(gate + " --junit - --jsonl -");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("at most one output may be standard output"), std::string::npos) << r.err;
  r = run("import " + kNcclTests + " --json -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("written_by"), "import");
  EXPECT_NE(r.err.find("nccl-tests"), std::string::npos) << r.err;
  r = run("topo --input " + path("topo.json") + " --json -");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--json -: standard output is not offered here"), std::string::npos);
}

// A failed write is the system's fault (exit 4), named with the file and the errno text.
TEST_F(OutputPolicy, FullDiskReadOnlyPlacesAndClosedPipesAreExitFour) {
  CliResult r = run("import " + kNcclTests + " --json /dev/full");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.err, "p2pcheck: error: /dev/full: write failed: No space left on device\n");
  r = run("gate --input " + path("topo.json") + " --policy " + kPolicy + " --jsonl /dev/full");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.err, "p2pcheck: error: /dev/full: write failed: No space left on device\n");
  // sysfs takes no new file, not even from root.
  r = run("import " + kNcclTests + " --json /sys/p2pcheck-import.json");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const bool said_before = r.err.rfind(
                               "p2pcheck: error: --json /sys/p2pcheck-import.json: "
                               "cannot write: ",
                               0) == 0;  // the check, where access() tells
  const bool said_when_written =
      r.err.rfind("p2pcheck: error: /sys/p2pcheck-import.json: cannot write: ", 0) == 0;  // root
  EXPECT_TRUE(said_before || said_when_written) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  // /proc takes no new file either: its directory is there, so it is the system's refusal.
  r = run("import " + kNcclTests + " --json /proc/p2pcheck-import.json");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("/proc/p2pcheck-import.json: cannot write: "), std::string::npos) << r.err;
  // The file size limit stands in for a disk that fills up during the write: no temporary stays.
  const int status =
      std::system(("bash -c 'trap \"\" XFSZ; ulimit -f 4; exec " + kExe + " import " + kNcclTests +
                   " --json " + path("big.json") + "' 2>" + path("err.txt"))
                      .c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 4);
  EXPECT_EQ(p2p::read_text_file(path("err.txt")),
            "p2pcheck: error: " + path("big.json") + ": write failed: File too large\n");
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  EXPECT_FALSE(fs::exists(path("big.json")));
  // A reader that went away: exit 4 and the reason, not a silent death by SIGPIPE. The pipe's
  // read end is closed before p2pcheck starts, so that every write to it fails.
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  ::close(ends[0]);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::dup2(ends[1], STDOUT_FILENO);
    const int err = ::open(path("pipe.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, STDERR_FILENO);
    ::execl(kExe.c_str(), "p2pcheck", "topo", "--input", path("topo.json").c_str(), "--format",
            "json", static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  ::close(ends[1]);
  int piped = 0;
  ASSERT_EQ(::waitpid(child, &piped, 0), child);
  ASSERT_TRUE(WIFEXITED(piped));
  EXPECT_EQ(WEXITSTATUS(piped), 4);
  EXPECT_EQ(p2p::read_text_file(path("pipe.txt")),
            "p2pcheck: error: cannot write to standard output: Broken pipe\n");
}

// Bad content of a document is bad input (exit 2) naming the file and the field, never exit 4
// with a library's message.
TEST_F(OutputPolicy, WrongTypesInsideDocumentsNameTheFileAndTheField) {
  std::string text = p2p::read_text_file(path("a.jsonl"));
  const auto at = text.find("\"headline\": \"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "\"headline\": 5, \"was\": \"");
  p2p::write_text_file_atomically(path("wrong.jsonl"), text);
  // In a fleet, that host's file is its NO RESULT, naming the file and the field; the rest are
  // judged (exit 1).
  CliResult r = run("merge " + path("wrong.jsonl") + " " + path("b.jsonl"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("NO RESULT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(path("wrong.jsonl") + ":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verdict `headline`: expected a string, got number"), std::string::npos)
      << r.out;
  nlohmann::json doc = nlohmann::json::parse(p2p::read_text_file(path("run.json")));
  doc["p2p_access"] = nlohmann::json::array({doc["p2p_access"][0], 5});
  p2p::write_text_file_atomically(path("row.json"), doc.dump());
  r = run("report " + path("row.json") + " --html " + path("row.html"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "p2pcheck: error: " + path("row.json") +
                       ": `p2p_access` row 1: expected an array of true/false, got number\n");
}

}  // namespace
