// `p2pcheck check --quick` as schedulers and monitoring run it, with the built executable:
// the exit code is the worst of doctor and gate, the last line of stdout is the verdict, the
// machine outputs parse, --jsonl on doctor and gate writes one line per check or reason, and
// the Slurm, NHC and node-problem-detector configurations in scripts/healthcheck/ work as
// their hosts would call them. Needs no GPU.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "report/tests/export_tools.hpp"

namespace {

using p2p::testing::CliResult;

const std::string kExe = P2PCHECK_EXE;
const std::string kSource = P2P_SOURCE_DIR;
const std::string kFixtures = kSource + "/topology/tests/fixtures/";
const std::string kDoctorFixtures = kSource + "/doctor/tests/fixtures/";
const std::string kPolicy = kSource + "/results/policies/single-gpu-smoke.json";
const std::string kHealthy = "--facts " + kDoctorFixtures + "h200-vm-real.json --input " +
                             kFixtures + "h200-vm.xml --policy " + kPolicy;
const std::string kBroken = "--facts " + kDoctorFixtures +
                            "lxc-gsp-firmware-missing.json --input " + kFixtures +
                            "rtxpro6000-lxc.xml";

CliResult run(const std::string& args) { return p2p::testing::run_captured(kExe + " " + args); }

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(CheckCli, HealthyFixturesPassWithOneVerdictLine) {
  const CliResult r = run("check --quick --brief " + kHealthy);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_EQ(lines[0].rfind("p2pcheck check: PASS — ", 0), 0u) << lines[0];
}

// A one-GPU node checked as one that must have eight: every other step passes, the count fails,
// and the brief line says so under 200 characters.
TEST(CheckCli, ExpectGpusFailsANodeWithFewerAndTheBriefLineIsShort) {
  const CliResult r = run("check --quick --brief --expect-gpus 8 " + kHealthy);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_LT(lines[0].size(), 200u) << lines[0];
  EXPECT_TRUE(contains(lines[0], "FAIL — ")) << lines[0];
  EXPECT_TRUE(contains(lines[0], ": gpus: 1 of 8 expected")) << lines[0];
  EXPECT_EQ(run("check --quick --brief --expect-gpus 1 " + kHealthy).exit_code, 0);
  const CliResult full = run("check --quick " + kHealthy);
  EXPECT_TRUE(contains(full.out, "ok    gpus: 1, any count (no --expect-gpus given)")) << full.out;
  EXPECT_EQ(run("check --quick --expect-gpus 0 " + kHealthy).exit_code, 2);
  // The broken LXC host: the doctor's failed check and its fix first, under 200 characters.
  const CliResult broken = run("check --quick --brief " + kBroken);
  EXPECT_EQ(broken.exit_code, 3) << "CUDA cannot work there: no usable GPU";
  EXPECT_LT(broken.out.size(), 201u) << broken.out;
  EXPECT_TRUE(contains(broken.out, ": doctor gsp.")) << broken.out;
}

TEST(CheckCli, ABrokenDriverStackFailsAndSaysWhyOnTheLastLine) {
  const CliResult r = run("check --quick " + kBroken);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;  // doctor, topology, GPU count, gate, verdict
  EXPECT_EQ(lines[0].rfind("FAIL  doctor: CUDA cannot work here", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("ok    topology: 8 GPU(s)", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2], "ok    gpus: 8, any count (no --expect-gpus given)");
  EXPECT_TRUE(contains(lines[4], "FAIL")) << lines[4];
  EXPECT_TRUE(contains(lines[4], "GSP firmware")) << lines[4];
}

TEST(CheckCli, TheGateBlockingIsAFailure) {
  const CliResult r =
      run("check --quick --brief --facts " + kDoctorFixtures + "h200-vm-real.json --input " +
          kFixtures + "rtxpro6000-vm.xml --policy " + kFixtures + "policy-rtxpro6000.json");
  const bool blocked = contains(r.out, "gate: BLOCKED");
  EXPECT_EQ(r.exit_code, blocked ? 1 : 0) << r.out << r.err;
}

// A GPU whose memory is failing fails the doctor and blocks the gate, by name, even though CUDA
// initialises on it: the real H200 capture with uncorrectable errors and a row remap pending.
TEST(CheckCli, AFailingGpuFailsTheDoctorAndBlocksTheGate) {
  p2p::TempDir dir;
  nlohmann::json facts = p2p::read_json_file(kDoctorFixtures + "h200-vm-real.json");
  nlohmann::json health = {{"query_errors", nlohmann::json::object()}};
  for (const char* key : {"ecc_mode_current",
                          "ecc_mode_pending",
                          "ecc_volatile_corrected",
                          "ecc_volatile_uncorrected",
                          "ecc_aggregate_corrected",
                          "ecc_aggregate_uncorrected",
                          "retired_pages_single_bit",
                          "retired_pages_double_bit",
                          "retired_pages_pending",
                          "remapped_rows_correctable",
                          "remapped_rows_uncorrectable",
                          "remapped_rows_pending",
                          "remapped_rows_failed",
                          "recovery_action",
                          "processes",
                          "pcie_replay_count",
                          "clock_event_reasons",
                          "temperature_c",
                          "temperature_slowdown_c",
                          "temperature_shutdown_c",
                          "power_usage_mw",
                          "power_limit_mw",
                          "mig_mode_current",
                          "mig_mode_pending",
                          "vgpu_licensed",
                          "vgpu_license_product"})
    health[key] = nullptr;
  health["clock_event_ns"] = nlohmann::json::object();
  health["ecc_volatile_uncorrected"] = 2;
  health["remapped_rows_pending"] = true;
  facts["nvml"]["devices"][0]["health"] = health;
  const std::string path = dir.file("failing.json");
  p2p::write_text_file_atomically(path, facts.dump());
  const CliResult r = run("check --quick --facts " + path + " --input " + kFixtures +
                          "h200-vm.xml --policy " + kPolicy);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  EXPECT_EQ(lines[0].rfind("FAIL  doctor: GPU(s) failing: 0000:00:06.0", 0), 0u) << lines[0];
  EXPECT_TRUE(contains(lines[3], "gate: BLOCKED")) << lines[3];
  EXPECT_TRUE(contains(lines[3], "health.gpu: GPU0 (0000:00:06.0) is failing")) << lines[3];
}

TEST(CheckCli, MachineOutputsParse) {
  p2p::TempDir dir;
  const std::string xml = dir.file("check.xml"), jsonl = dir.file("check.jsonl"),
                    prom = dir.file("check.prom");
  const CliResult r = run("check --quick --brief " + kBroken + " --junit " + xml + " --jsonl " +
                          jsonl + " --prom " + prom);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  if (p2p::testing::have_command("xmllint")) {
    EXPECT_EQ(p2p::testing::junit_problems(xml), "");
  }
  const std::string junit = p2p::try_read_text_file(xml).value_or("");
  EXPECT_TRUE(contains(junit, "<testsuite name=\"doctor\"")) << junit.substr(0, 300);
  EXPECT_TRUE(contains(junit, "<testsuite name=\"gate\""));
  const auto lines = split_lines(p2p::try_read_text_file(jsonl).value_or(""));
  ASSERT_GE(lines.size(), 3u);
  for (const auto& l : lines) ASSERT_TRUE(nlohmann::json::accept(l)) << l;
  EXPECT_EQ(nlohmann::json::parse(lines.front()).at("kind"), "run_start");
  EXPECT_EQ(nlohmann::json::parse(lines.back()).at("kind"), "run_end");
  EXPECT_EQ(nlohmann::json::parse(lines.back()).at("record").at("exit_code"), 3);
  const std::string text = p2p::try_read_text_file(prom).value_or("");
  EXPECT_TRUE(contains(text, "p2pcheck_doctor_check_failed{"));
  EXPECT_TRUE(contains(text, "p2pcheck_gate_passed{"));
  EXPECT_TRUE(contains(text, "p2pcheck_last_run_timestamp_seconds{"));
  const std::string python = p2p::testing::python_with_prometheus_client();
  if (!python.empty()) {
    EXPECT_EQ(p2p::testing::check_prometheus_file(python, prom).exit_code, 0);
  }
}

// Live on this host: a verdict (healthy or not), on exactly one line for a health checker.
TEST(CheckCli, OnThisHostItGivesOneVerdictLine) {
  const CliResult r = run("check --quick --brief");
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << ": " << r.err;
  EXPECT_EQ(split_lines(r.out).size(), 1u) << r.out;
}

// An acceptance run that cannot be about P2P says so: NCCL_P2P_DISABLE=1 in the environment of
// the host the facts were saved on blocks the gate, naming the variable, and --allow-env accepts
// it.
TEST(CheckCli, NcclP2pDisableBlocksTheGateNamingItUnlessAllowed) {
  p2p::TempDir dir;
  nlohmann::json facts = p2p::read_json_file(kDoctorFixtures + "h200-vm-real.json");
  facts["env"]["NCCL_P2P_DISABLE"] = "1";
  p2p::write_text_file_atomically(dir.file("facts.json"), facts.dump());
  const std::string args = "check --quick --facts " + dir.file("facts.json") + " --input " +
                           kFixtures + "h200-vm.xml --policy " + kPolicy;
  const CliResult blocked = run(args);
  EXPECT_EQ(blocked.exit_code, 1) << blocked.out << blocked.err;
  const auto lines = split_lines(blocked.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(contains(lines.back(), "env.p2p: NCCL_P2P_DISABLE=1")) << lines.back();
  EXPECT_TRUE(contains(lines.back(), "--allow-env NCCL_P2P_DISABLE")) << lines.back();
  const CliResult allowed = run(args + " --allow-env NCCL_P2P_DISABLE");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
  const CliResult unset = run("check --quick " + kHealthy);
  EXPECT_EQ(unset.exit_code, 0) << "the same host without the variable passes: " << unset.out;
}

TEST(CheckCli, BadInputIsOneLineExitTwo) {
  for (const std::string args :
       {"check", "check --quick --policy /nonexistent/policy.json", "check --quick --jsonl -",
        "check --quick --facts /nonexistent.json", "check --quick --allow-env NCCL_ALGO"}) {
    const CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(split_lines(r.err).size(), 1u) << args << ": " << r.err;
  }
}

TEST(JsonlCli, DoctorAndGateWriteOneLinePerCheckAndReason) {
  p2p::TempDir dir;
  const std::string path = dir.file("doctor.jsonl");
  const CliResult d =
      run("doctor --facts " + kDoctorFixtures + "h200-vm-real.json --jsonl " + path);
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_TRUE(contains(d.out, "Verdict:")) << "text stays on stdout with a file";
  const auto lines = split_lines(p2p::try_read_text_file(path).value_or(""));
  ASSERT_GT(lines.size(), 20u);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const auto j = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(j.at("kind"), "finding");
    EXPECT_EQ(j.at("command"), "doctor");
  }
  EXPECT_EQ(nlohmann::json::parse(lines.back()).at("kind"), "verdict");

  // Streaming to stdout: only JSON lines there, the text goes to stderr.
  const CliResult g =
      run("gate --input " + kFixtures + "h200-vm.xml --policy " + kPolicy + " --jsonl -");
  EXPECT_EQ(g.exit_code, 0) << g.err;
  const auto glines = split_lines(g.out);
  ASSERT_EQ(glines.size(), 4u) << g.out;  // three reasons and the decision
  for (const auto& l : glines) EXPECT_TRUE(nlohmann::json::accept(l)) << l;
  EXPECT_EQ(nlohmann::json::parse(glines[0]).at("record").at("rule"), "policy.min_gpus");
  EXPECT_EQ(nlohmann::json::parse(glines.back()).at("record").at("passed"), true);
  EXPECT_TRUE(contains(g.err, "gate: PASS"));
  EXPECT_EQ(run("gate --input " + kFixtures + "h200-vm.xml --policy " + kPolicy +
                " --format json --jsonl -")
                .exit_code,
            2);
}

// The scheduler side: the scripts and configs in scripts/healthcheck/ as their hosts use them.
const std::string kHealth = kSource + "/scripts/healthcheck/";

TEST(HealthCheckConfigs, SlurmScriptDrainsAFailingNodeWithTheVerdict) {
  p2p::TempDir dir;
  const std::string log = dir.file("scontrol.log"), fake = dir.file("scontrol");
  p2p::write_text_file_atomically(fake, "#!/bin/sh\necho \"$@\" >> '" + log + "'\n");
  p2p::testing::run_captured("chmod +x '" + fake + "'");
  const std::string env = "P2PCHECK='" + kExe + "' SCONTROL='" + fake +
                          "' SLURMD_NODENAME=node17 P2PCHECK_POLICY=/nonexistent ";
  const CliResult bad = p2p::testing::run_captured(env + "P2PCHECK_ARGS='" + kBroken + "' " +
                                                   kHealth + "slurm-healthcheck.sh");
  EXPECT_EQ(bad.exit_code, 3) << bad.out << bad.err;
  const std::string drained = p2p::try_read_text_file(log).value_or("");
  EXPECT_EQ(
      drained.rfind(
          "update NodeName=node17 State=DRAIN Reason=p2pcheck exit 3: p2pcheck check: FAIL", 0),
      0u)
      << drained;
  p2p::testing::run_captured("rm -f '" + log + "'");
  const CliResult good = p2p::testing::run_captured(env + "P2PCHECK_ARGS='" + kHealthy + "' " +
                                                    kHealth + "slurm-healthcheck.sh");
  EXPECT_EQ(good.exit_code, 0) << good.out << good.err;
  EXPECT_FALSE(p2p::try_read_text_file(log).has_value()) << "a healthy node is left alone";
}

TEST(HealthCheckConfigs, NhcCheckDiesWithTheVerdictOnlyWhenUnhealthy) {
  const std::string nhc = kHealth + "p2pcheck.nhc";
  const std::string prelude =
      "bash -c 'die() { echo \"DIE $*\"; }; P2PCHECK_BIN=" + kExe + "; source " + nhc + "; ";
  const CliResult bad = p2p::testing::run_captured(prelude + "check_p2pcheck " + kBroken + "'");
  EXPECT_EQ(bad.out.rfind("DIE 1 check_p2pcheck: p2pcheck check: FAIL", 0), 0u)
      << bad.out << bad.err;
  EXPECT_TRUE(contains(bad.out, "(exit 3)")) << bad.out;  // CUDA cannot work there
  const CliResult good = p2p::testing::run_captured(prelude + "check_p2pcheck " + kHealthy + "'");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(good.out, "");
}

TEST(HealthCheckConfigs, NodeProblemDetectorPluginRunsTheQuickCheck) {
  const auto j = p2p::read_json_file(kHealth + "node-problem-detector.json");
  EXPECT_EQ(j.at("plugin"), "custom");
  const auto& rule = j.at("rules").at(0);
  EXPECT_EQ(rule.at("condition"), j.at("conditions").at(0).at("type"));
  // NPD: exit 0 OK, 1 problem, anything else unknown. p2pcheck exits 3 where there is no usable
  // GPU (no driver, CUDA cannot work): a shell around it makes that a problem, not unknown.
  EXPECT_EQ(rule.at("path"), "/bin/sh");
  ASSERT_EQ(rule.at("args").size(), 2u);
  EXPECT_EQ(rule.at("args").at(0), "-c");
  std::string script = rule.at("args").at(1).get<std::string>();
  const std::string exe = "/usr/local/bin/p2pcheck ";
  ASSERT_EQ(script.rfind(exe + "check --quick", 0), 0u) << script;
  const auto run_plugin = [&](const std::string& with) {
    std::string s = script;
    s.replace(0, exe.size() - 1, with);
    return p2p::testing::run_captured("/bin/sh -c '" + s + "'");
  };
  // The message is the one stdout line.
  const CliResult r = run_plugin(kExe);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << ": " << r.err;
  EXPECT_EQ(split_lines(r.out).size(), 1u);
  // A stand-in p2pcheck that finds no usable GPU (exit 3): the plugin reports a problem.
  p2p::TempDir dir;
  const std::string fake = dir.file("p2pcheck");
  p2p::write_text_file_atomically(
      fake, "#!/bin/sh\necho 'p2pcheck check: FAIL — node: doctor'\nexit 3\n");
  p2p::testing::run_captured("chmod +x '" + fake + "'");
  const CliResult broken = run_plugin(fake);
  EXPECT_EQ(broken.exit_code, 1) << broken.out << broken.err;
  EXPECT_EQ(broken.out, "p2pcheck check: FAIL — node: doctor\n");
  EXPECT_LE(r.out.size(), j.at("pluginConfig").at("max_output_length").get<std::size_t>() + 200)
      << "the verdict line stays short enough to read in a node condition";
}

}  // namespace
