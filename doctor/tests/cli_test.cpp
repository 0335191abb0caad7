// `p2pcheck doctor` as users run it: the built binary, its exit codes, its one-line errors.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using p2p::doctor::test::contains;
using p2p::doctor::test::fixture;

namespace {

using CliRun = p2p::testing::CliResult;

class DoctorCli : public ::testing::Test {
 protected:
  CliRun run(const std::string& args) {
    return p2p::testing::run_captured(std::string("'") + P2PCHECK_EXE + "' doctor " + args);
  }

  static int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  p2p::TempDir tmp_{"p2p_doctor_cli"};
  fs::path dir_{tmp_.path()};
};

TEST_F(DoctorCli, HealthyFactsExitZeroWithAChecklistAndAVerdict) {
  const CliRun r = run("--facts " + fixture("bare-metal-healthy.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "✔ module.loaded")) << r.out;
  EXPECT_TRUE(contains(r.out, "– fabric_manager")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nVerdict: healthy: CUDA works on 4 GPU(s)")) << r.out;
  EXPECT_EQ(r.err, "");
}

// CUDA cannot work on this host: exit 3 (no usable GPU), as bench, nccl and topo say it.
TEST_F(DoctorCli, ABrokenCudaExitsThreeAndNamesTheRootCauseFirst) {
  const CliRun r = run("--facts " + fixture("lxc-gsp-firmware-missing.json"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(
      r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1)
          .rfind("p2pcheck doctor: FAIL — CUDA cannot work here. Most likely root cause: GSP", 0),
      0u)
      << r.out;
  EXPECT_TRUE(contains(r.out, "✘ gsp.firmware_file")) << r.out;
  EXPECT_TRUE(contains(r.out, "    → on the host: install")) << "hints are indented under the line";
  EXPECT_TRUE(contains(
      r.out,
      "Verdict: CUDA cannot work here. Most likely root cause: GSP firmware / kernel-driver support"));
  EXPECT_TRUE(contains(r.out, "  1. GSP firmware / kernel-driver support [confirmed]"));
  EXPECT_TRUE(
      contains(r.out, "device permissions and cgroups ruled out: /dev/nvidia* opened read-write"));
}

TEST_F(DoctorCli, WarningsAloneExitZero) {
  const CliRun r = run("--facts " + fixture("acs-root-ports-nccl-hang.json"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "⚠ pcie.acs")) << r.out;
  EXPECT_TRUE(contains(r.out, "Verdict: CUDA works on 2 GPU(s) (bare metal); P2P at risk: "))
      << r.out;
}

TEST_F(DoctorCli, UnknownsHaveTheirOwnSymbol) {
  const CliRun r = run("--facts " + fixture("h200-vm-real.json"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "? uvm.major")) << "unknowns get their own symbol";
}

TEST_F(DoctorCli, JsonReportCarriesFindingsVerdictAndExitCode) {
  const CliRun r = run("--facts " + fixture("lxc-hmm-kaslr.json") + " --format json");
  EXPECT_EQ(r.exit_code, 3);  // CUDA cannot work there: no usable GPU
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("schema"), "p2pcheck.doctor.report");
  EXPECT_EQ(j.at("exit_code"), 3);
  EXPECT_EQ(j.at("verdict").at("causes").at(0).at("id"), "uvm_hmm");
  bool saw_hmm = false;
  for (const auto& f : j.at("findings"))
    if (f.at("id") == "uvm.hmm") saw_hmm = f.at("status") == "fail";
  EXPECT_TRUE(saw_hmm);
}

// --json FILE keeps the report beside the checklist people read, as --json does on every
// command that writes a document.
TEST_F(DoctorCli, JsonFileIsTheReportFormatJsonPrints) {
  const CliRun printed = run("--facts " + fixture("lxc-hmm-kaslr.json") + " --format json");
  const CliRun kept = run("--facts " + fixture("lxc-hmm-kaslr.json") + " --json " + path("r.json"));
  EXPECT_EQ(kept.exit_code, 3);
  EXPECT_NE(kept.out.find("p2pcheck doctor:"), std::string::npos) << "the checklist stays";
  EXPECT_EQ(nlohmann::json::parse(p2p::read_text_file(path("r.json"))),
            nlohmann::json::parse(printed.out));
}

TEST_F(DoctorCli, SavedFactsReplayToTheSameReport) {
  const CliRun live = run("--root " + fixture("roots/lxc-blackwell") + " --save-facts " +
                          path("facts.json") + " --format json");
  EXPECT_EQ(live.exit_code, 3) << live.err;
  const CliRun replay = run("--facts " + path("facts.json") + " --format json");
  EXPECT_EQ(replay.exit_code, 3) << replay.err;
  EXPECT_EQ(nlohmann::json::parse(replay.out).at("findings"),
            nlohmann::json::parse(live.out).at("findings"));
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos)
        << "leftover " << e.path();
}

TEST_F(DoctorCli, MalformedFactsFileIsOneLineExitTwo) {
  std::ofstream(path("bad.json")) << "{\"schema\": \"p2pcheck.doctor.facts\", ";
  const CliRun r = run("--facts " + path("bad.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, path("bad.json") + ": not valid JSON")) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(DoctorCli, FactsOfAnotherVersionAreOneLineExitTwo) {
  auto j = p2p::read_json_file(fixture("vfio-vm.json"));
  j["version"] = 7;
  std::ofstream(path("v7.json")) << j.dump();
  const CliRun r = run("--facts " + path("v7.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "facts version 7 is not supported")) << r.err;
}

TEST_F(DoctorCli, MissingOrUnreadableRootIsOneLineExitTwo) {
  CliRun r = run("--root " + path("nowhere"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, path("nowhere") + ": cannot read the root directory")) << r.err;
  std::ofstream(path("file")) << "x";
  r = run("--root " + path("file"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "Not a directory")) << r.err;
}

TEST_F(DoctorCli, UnknownFormatIsOneLineExitTwo) {
  const CliRun r = run("--facts " + fixture("vfio-vm.json") + " --format xml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "--format: unknown format 'xml'")) << r.err;
}

TEST_F(DoctorCli, SaveFactsIntoAMissingDirectoryWritesNothing) {
  const CliRun r =
      run("--facts " + fixture("vfio-vm.json") + " --save-facts " + path("no/such/dir/f.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "--save-facts " + path("no/such/dir/f.json") + ": the directory " +
                                  path("no/such/dir") + " does not exist"))
      << r.err;
  EXPECT_FALSE(fs::exists(path("no")));
}

TEST_F(DoctorCli, RootAndFactsTogetherAreRefused) {
  const CliRun r = run("--facts " + fixture("vfio-vm.json") + " --root /");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

}  // namespace

namespace {

// Strings the doctor collects are bytes; JSON must be UTF-8. A byte that is not (0xff in an
// environment variable, in a GPU model name read under --root) is written as `\xFF`, never
// a failed run.
class DoctorCliBytes : public DoctorCli {};

TEST_F(DoctorCliBytes, AnEnvironmentVariableWithByteFFIsEscapedInJsonAndSavedFacts) {
  const CliRun r = p2p::testing::run_captured(
      std::string("env NCCL_SOCKET_IFNAME=$(printf 'eth\\377') '") + P2PCHECK_EXE +
      "' doctor --format json --save-facts " + path("facts.json"));
  EXPECT_NE(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out).is_object());
  EXPECT_NE(r.out.find("eth\\\\xFF"), std::string::npos)
      << "the escaped value, as JSON writes its backslash";
  const auto facts = nlohmann::json::parse(p2p::read_text_file(path("facts.json")));
  EXPECT_EQ(facts.at("env").at("NCCL_SOCKET_IFNAME"), "eth\\xFF");
  // The saved facts replay: the escaped value is an ordinary string now.
  const CliRun replay = run("--facts " + path("facts.json") + " --format json");
  EXPECT_NE(replay.exit_code, 4) << replay.err;
  EXPECT_TRUE(nlohmann::json::parse(replay.out).is_object());
}

TEST_F(DoctorCliBytes, AGpuNameWithInvalidUtf8UnderRootIsEscaped) {
  const fs::path root = dir_ / "root";
  fs::copy(fixture("roots/lxc-blackwell"), root,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const fs::path info = root / "proc/driver/nvidia/gpus/0000:41:00.0/information";
  fs::remove(info);
  std::ofstream(info) << "Model: \t\t NVIDIA \xC3\x28 Bad\xFF Name\nDevice Minor: \t 0\n";
  fs::create_directories(root / "proc/self");
  std::ofstream(root / "proc/self/environ", std::ios::binary)
      << std::string("CUDA_VISIBLE_DEVICES=0\xFE") << '\0';
  const CliRun r =
      run("--root " + root.string() + " --format json --save-facts " + path("facts.json"));
  EXPECT_EQ(r.exit_code, 3) << r.err;  // no driver under that root
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
  const auto facts = nlohmann::json::parse(p2p::read_text_file(path("facts.json")));
  EXPECT_NE(facts.dump().find("NVIDIA \\\\xC3( Bad\\\\xFF Name"), std::string::npos)
      << facts.dump();
  EXPECT_EQ(facts.at("env").at("CUDA_VISIBLE_DEVICES"), "0\\xFE");
  EXPECT_TRUE(nlohmann::json::parse(r.out).is_object());
}

}  // namespace
