// The built executable against input a hostile or careless user gives it: every case ends in
// one line on stderr and a documented exit code, and nothing is written where it must not be.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

using p2p::testing::CliResult;
namespace fs = std::filesystem;

const std::string kExe = P2PCHECK_EXE;
const std::string kFixtures = std::string(P2P_SOURCE_DIR) + "/topology/tests/fixtures/";
const std::string kPolicy = std::string(P2P_SOURCE_DIR) + "/results/policies/single-gpu-smoke.json";
const std::string kBenchRun =
    std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";

CliResult run(const std::string& args) { return p2p::testing::run_captured(kExe + " " + args); }

int lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

class Hostile : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  p2p::TempDir tmp_{"p2p_hostile"};
  fs::path dir_{tmp_.path()};
};

// `gate --format json > /dev/full` used to exit 0 (pass) with nothing written.
TEST_F(Hostile, AFailedWriteToStandardOutputIsExitFour) {
  const int status = std::system((kExe + " gate --input " + kFixtures + "h200-vm.xml --policy " +
                                  kPolicy + " --format json > /dev/full 2>'" + path("err") + "'")
                                     .c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 4);
  std::ifstream in(path("err"));
  std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(err, "p2pcheck: error: cannot write to standard output: No space left on device\n");
}

TEST_F(Hostile, DevicesDirectoriesAndDeepJsonAreOneLineExitTwo) {
  for (const std::string& input : {std::string("/dev/zero"), dir_.string()}) {
    const CliResult r = run("topo --input " + input);
    EXPECT_EQ(r.exit_code, 2) << input << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(input), std::string::npos) << r.err;
  }
  std::ofstream(path("deep.json"))
      << "{\"min_gpus\": " << std::string(100000, '[') << std::string(100000, ']') << "}";
  const CliResult r =
      run("gate --input " + kFixtures + "h200-vm.xml --policy " + path("deep.json"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "p2pcheck: error: " + path("deep.json") +
                       ": not valid JSON: line 1: nested deeper than 128 levels\n");
}

// nlohmann keeps the last of two equal keys: a policy giving "max_path" twice would apply one of
// them without a word. Every JSON input refuses it, naming the key and its line.
TEST_F(Hostile, AKeyGivenTwiceInAPolicyIsExitTwoNamingItsLine) {
  std::ofstream(path("twice.json")) << "{\n  \"max_path\": \"SYS\",\n  \"max_path\": \"PIX\"\n}\n";
  const CliResult r =
      run("gate --input " + kFixtures + "h200-vm.xml --policy " + path("twice.json"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "p2pcheck: error: " + path("twice.json") +
                       ": not valid JSON: line 3: key \"max_path\" given twice\n");
}

TEST_F(Hostile, ANewlineInAFileNameStaysOnOneLine) {
  const CliResult r = run("topo --input '" + path("a\nb.xml") + "'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("a\\nb.xml"), std::string::npos) << r.err;
}

// A device is written into, never replaced: /dev/null stays a device and takes the snapshot.
TEST_F(Hostile, SavingToADeviceWritesIntoItNeverReplacesIt) {
  const CliResult r = run("topo --input " + kFixtures + "h200-vm.xml --json /dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(Hostile, NonFiniteToleranceIsRefused) {
  for (const char* value : {"nan", "inf", "-nan"}) {
    const CliResult r = run("compare " + kBenchRun + " " + kBenchRun + " --tolerance-pct " + value);
    EXPECT_EQ(r.exit_code, 2) << value << ": " << r.err;
    EXPECT_NE(r.err.find("--tolerance-pct: `" + std::string(value) +
                         "` is not a number of percent from 0 to 100"),
              std::string::npos)
        << r.err;
  }
}

TEST_F(Hostile, AReportNeverOverwritesItsInput) {
  fs::copy_file(kBenchRun, path("run.json"));
  const CliResult r = run("report " + path("run.json") + " --html " + path("run.json"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("refusing to overwrite an input"), std::string::npos) << r.err;
  EXPECT_EQ(p2p::read_text_file(path("run.json")), p2p::read_text_file(kBenchRun));
}

// hwloc 2.9 overflows its stack on XML nested about 20,000 levels deep and dereferences a null
// bitmap on a malformed one (lstopo crashes on both); hwloc reads in a child process, so
// p2pcheck says so and exits 2. Where libhwloc-plugins is installed (Open MPI pulls it in),
// hwloc parses XML with libxml2, which refuses the deep one instead of crashing: also exit 2,
// naming the file.
TEST_F(Hostile, XmlThatCrashesHwlocIsExitTwoNamingTheFile) {
  const std::string sets =
      "cpuset=\"0x1\" complete_cpuset=\"0x1\" allowed_cpuset=\"0x1\" nodeset=\"0x1\" "
      "complete_nodeset=\"0x1\" allowed_nodeset=\"0x1\"";
  std::string xml =
      "<topology version=\"2.0\"><object type=\"Machine\" os_index=\"0\" " + sets + ">";
  for (int i = 0; i < 20000; ++i) xml += "<object type=\"Group\" " + sets + ">";
  xml += "<object type=\"PU\" os_index=\"0\" " + sets + "/>";
  for (int i = 0; i < 20000; ++i) xml += "</object>";
  std::ofstream(path("deep.xml")) << xml << "</object></topology>\n";
  // And a malformed 10-line one: a NUMA node without complete_nodeset (topology/tests/hostile/).
  const std::string malformed =
      std::string(P2P_SOURCE_DIR) + "/topology/tests/hostile/numa-without-complete-nodeset.xml";
  for (const std::string& xml : {path("deep.xml"), malformed}) {
    for (const std::string& cmd :
         {std::string("topo --input "), "topo diff " + kFixtures + "h200-vm.xml ",
          "gate --policy " + kPolicy + " --input "}) {
      const CliResult r = run(cmd + xml);
      EXPECT_EQ(r.exit_code, 2) << cmd << r.err;
      EXPECT_EQ(lines(r.err), 1) << r.err;
      const bool crashed =
          r.err.rfind("p2pcheck: error: " + xml + ": hwloc crashed reading this XML (SIGSEGV)",
                      0) == 0;
      const bool refused =
          r.err.rfind("p2pcheck: error: " + xml + ": hwloc cannot load this XML", 0) == 0;
      EXPECT_TRUE(crashed || (refused && xml == path("deep.xml"))) << r.err;
    }
  }
}

// A results document is read from anywhere: a size of 0 (report looped forever on it), 2^64 - 1
// or 1e300 (a cast that is undefined behaviour) and a number beyond a double are bad input.
TEST_F(Hostile, NumbersOutOfRangeInADocumentAreExitTwo) {
  const nlohmann::json run_doc = nlohmann::json::parse(p2p::read_text_file(kBenchRun));
  const std::string expected = "`bytes`: expected an integer 1..4611686018427387904, got ";
  const std::pair<nlohmann::json, std::string> cases[] = {
      {0, expected + "0"},           {18446744073709551615ull, expected + "18446744073709551615"},
      {-1, expected + "-1"},         {1e300, expected + "1e+300"},
      {4096.5, expected + "4096.5"}, {123456789, "not valid JSON: number overflow parsing '1e400'"},
  };
  for (const auto& [bytes, error] : cases) {
    nlohmann::json doc = run_doc;
    doc["bandwidth"][0]["bytes"] = bytes;
    std::string text = doc.dump();
    if (bytes == 123456789) text.replace(text.find("123456789"), 9, "1e400");
    std::ofstream(path("run.json")) << text;
    for (const std::string& cmd : {"report " + path("run.json") + " --html " + path("run.html"),
                                   "compare " + kBenchRun + " " + path("run.json")}) {
      const CliResult r = run(cmd);
      EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.err;
      EXPECT_EQ(r.err, "p2pcheck: error: " + path("run.json") + ": " + error + "\n") << cmd;
    }
  }
  EXPECT_FALSE(fs::exists(path("run.html")));
}

}  // namespace

namespace {

// A name with a byte that is not UTF-8 (0xff in a NIC's column of a pasted nvidia-smi capture)
// is written as `\xFF` in the JSON, never a failed run; where the reader itself refuses such a
// file (hwloc's XML parser), the one-line error names it.
TEST_F(Hostile, InvalidUtf8InACaptureIsEscapedInTopoJson) {
  std::string capture = p2p::read_text_file(std::string(P2P_SOURCE_DIR) +
                                            "/import/tests/fixtures/dgx-a100-nv12-topo.txt");
  for (auto at = capture.find("mlx5_0"); at != std::string::npos; at = capture.find("mlx5_0", at))
    capture.replace(at, 6, "mlx5_\xFF");
  std::ofstream(path("bad-topo.txt"), std::ios::binary) << capture;
  const CliResult r =
      run("topo --input " + path("bad-topo.txt") + " --format json --json " + path("saved.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NE(j.dump().find("mlx5_\\\\xFF"), std::string::npos) << r.out.substr(0, 2000);
  EXPECT_TRUE(nlohmann::json::parse(p2p::read_text_file(path("saved.json"))).is_object());
}

TEST_F(Hostile, InvalidUtf8InHwlocXmlIsOneLineNamingTheFile) {
  std::string xml = p2p::read_text_file(kFixtures + "h200-vm.xml");
  const auto at = xml.find("NVIDIA H200");
  ASSERT_NE(at, std::string::npos);
  xml.insert(at + 11, "\xFF");
  std::ofstream(path("bad.xml"), std::ios::binary) << xml;
  const CliResult r = run("topo --input " + path("bad.xml") + " --format json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(path("bad.xml")), std::string::npos) << r.err;
}

}  // namespace

namespace {

std::string results_dir() { return std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/"; }

// A file's name or strings reach every text output through terminal_text: an escape sequence in
// them cannot clear or recolour the user's terminal. Each command is given inputs whose name holds
// ESC [2J (clear screen); its text names the file, escaped.
TEST_F(Hostile, EscapeBytesFromInputsAreWrittenEscapedInEveryTextOutput) {
  const std::string esc = "\x1b[2J";
  const auto copy = [&](const std::string& from, const std::string& name) {
    const std::string to = path(name + esc + ".json");
    std::ofstream(to, std::ios::binary) << p2p::read_text_file(from);
    return "'" + to + "'";
  };
  // Doctor facts name no file in the verdict: the escape is in the driver version they hold.
  std::string facts = p2p::read_text_file(results_dir() + "h200-facts.json");
  for (auto at = facts.find("580.159.04"); at != std::string::npos;
       at = facts.find("580.159.04", at + 16))
    facts.replace(at, 10, "580.159.04\\u001b[2J");
  std::ofstream(path("facts.json"), std::ios::binary) << facts;
  const std::string xml = path("host" + esc + ".xml");
  std::ofstream(xml, std::ios::binary) << p2p::read_text_file(kFixtures + "h200-vm.xml");
  const std::string run_doc = copy(results_dir() + "h200-bench.json", "run");
  for (const std::string& args :
       {"topo --input '" + xml + "'", "gate --input '" + xml + "' --policy " + kPolicy,
        "topo diff '" + xml + "' '" + xml + "'", "compare " + run_doc + " " + run_doc,
        "judge " + run_doc, "doctor --facts " + path("facts.json"),
        "import " +
            copy(std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/dgx-a100-nv12-topo.txt",
                 "capture")}) {
    const CliResult r = run(args);
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << args << ":\n" << r.out;
    EXPECT_NE(r.out.find("\\x1b[2J"), std::string::npos) << args << ":\n" << r.out << r.err;
  }
}

}  // namespace

namespace {

// A "schema" that is not a string is no p2pcheck document: one line naming the file, exit 2 (it
// was exit 4 with a bare nlohmann type error naming nothing).
TEST_F(Hostile, ASchemaThatIsNotAStringIsOneLineNamingTheFile) {
  const std::string doc = path("schema5.json");
  std::ofstream(doc) << R"({"schema": 5, "pairs": []})";
  const std::string vm = kFixtures + "rtxpro6000-vm.xml", host = kFixtures + "rtxpro6000-lxc.xml";
  for (const std::string& args :
       {"vm plan --topology " + host + " --p2p " + doc,
        "vm compare " + vm + " " + vm + " " + host + " --verify " + doc, "report " + doc}) {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(doc), std::string::npos) << args << ": " << r.err;
  }
}

}  // namespace

namespace {

// An empty value is refused like every other empty item, never taken as "not given" (an empty
// --policy judged under the default policy and passed).
TEST_F(Hostile, EmptyValuesAreRefusedNamingTheOption) {
  const std::string doc =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";
  const std::string capture =
      std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/dgx-a100-nv12-topo.txt";
  for (const auto& [args, option] : std::vector<std::pair<std::string, std::string>>{
           {"judge " + doc + " --policy ''", "--policy"},
           {"export " + doc + " --junit - --policy ''", "--policy"},
           {"export " + doc + " --junit - --hostname ''", "--hostname"},
           {"import " + capture + " --collective ''", "--collective"},
           {"infer --list --hidden 8 --gpus ''", "--devices"},
           {"nccl --gpus ''", "--devices"},
           {"vm plan --topology " + kFixtures + "pcie-switch.xml --guest-bus-ids ''",
            "--guest-bus-ids"}}) {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("p2pcheck: error: " + option + ": the ", 0), 0u) << args << ": " << r.err;
    EXPECT_NE(r.err.find("is empty"), std::string::npos) << args << ": " << r.err;
  }
}

// An empty item inside a list is refused too: CLI11 dropped it, so `--gpus 0,,1` meant 0,1.
TEST_F(Hostile, AnEmptyItemInAListIsRefusedNamingTheOption) {
  for (const auto& [args, line] : std::vector<std::pair<std::string, std::string>>{
           {"infer --list --hidden 8 --gpus 0,,1", "infer: --gpus: an empty item in '0,,1'"},
           {"infer --list --hidden 8 --tp 2,", "infer: --tp: an empty item in '2,'"},
           {"nccl --gpus 0,,1", "nccl: --gpus: an empty item in '0,,1'"},
           {"vm plan --topology " + kFixtures + "pcie-switch.xml --gpus 0,,1",
            "--gpus: an empty item in '0,,1'"}}) {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(r.err, "p2pcheck: error: " + line + "\n") << args;
  }
}

}  // namespace

namespace {

// Numbers no hardware has are refused where they are read, naming the key: a snapshot's link
// (Gen-7 x-7 was printed), its NUMA node, a document's negative bandwidth (judged as "-84% of
// PCIe"), a Proxmox VM id with a leading zero (printed into qm lines Proxmox refuses).
TEST_F(Hostile, NumbersNoHardwareHasAreRefusedNamingTheKey) {
  const std::string golden = p2p::read_text_file(std::string(P2P_SOURCE_DIR) +
                                                 "/topology/tests/golden/rtxpro6000-lxc.json");
  for (const auto& [key, value, where] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"\"gen\": 5", "\"gen\": -7", "gpus[0].link_current.gen: -7 is outside 1 to 7"},
           {"\"width\": 16", "\"width\": -7", "gpus[0].link_current.width: -7 is outside 1 to 32"},
           {"\"gbps\": 63.015", "\"gbps\": 1e300", "gpus[0].link_current.gbps: 1e+300 is outside"},
           {"\"numa_node\": 0", "\"numa_node\": -7",
            "gpus[0].numa_node: -7 is outside 0 to 4095"}}) {
    std::string text = golden;
    const auto at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    text.replace(at, key.size(), value);
    std::ofstream(path("snapshot.json")) << text;
    const CliResult r = run("topo --input " + path("snapshot.json"));
    EXPECT_EQ(r.exit_code, 2) << value << ": " << r.out;
    EXPECT_NE(r.err.find(where), std::string::npos) << value << ": " << r.err;
  }
  auto doc = nlohmann::json::parse(p2p::read_text_file(kBenchRun));
  doc["bandwidth"][0]["median_gbps"] = -52.9;
  std::ofstream(path("negative.json")) << doc.dump();
  const CliResult judged = run("judge " + path("negative.json"));
  EXPECT_EQ(judged.exit_code, 2) << judged.out;
  EXPECT_EQ(judged.err, "p2pcheck: error: " + path("negative.json") +
                            ": median_gbps: -52.9 is negative: not a bandwidth\n");
  const CliResult vmid = run("vm plan --topology " + kFixtures + "pcie-switch.xml --vmid 0105");
  EXPECT_EQ(vmid.exit_code, 2) << vmid.out;
  EXPECT_NE(vmid.err.find("without a leading zero"), std::string::npos) << vmid.err;
}

}  // namespace
