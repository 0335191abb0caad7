// `p2pcheck node` and `p2pcheck merge` with the built executable over the four fixture hosts
// (cluster/tests/fleet_checks.hpp), on any machine: --fixture-host stands in for each host. Needs
// no GPU and no MPI.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cluster/tests/fleet_checks.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "report/tests/export_tools.hpp"

namespace {

using p2p::testing::CliResult;

const std::string kExe = P2PCHECK_EXE;
const std::string kHosts = std::string(P2P_SOURCE_DIR) + "/cluster/tests/fixtures/hosts/";
// The fixture hosts' figures were measured on logical GPUs (8 on one device): a caveat that
// fails a host unless the merge accepts it.
const std::string kAllowLogical = " --allow-caveat logical";

CliResult run(const std::string& args) { return p2p::testing::run_captured(kExe + " " + args); }
bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// node for each fixture host into dir; node-b's file then cut the way a killed run leaves it:
// whole lines up to ten figures after its gate, then half of the next line.
std::string node_files(const p2p::TempDir& dir) {
  std::string files;
  for (const char* h : {"node-a", "node-b", "node-c", "node-d"}) {
    const std::string out = dir.file(std::string(h) + ".jsonl");
    const CliResult r = run("node --fixture-host " + kHosts + h + " --jsonl " + out);
    EXPECT_EQ(r.exit_code, 0) << h << ": " << r.out << r.err;
    files += " " + out;
  }
  const auto b = lines_of(p2p::try_read_text_file(dir.file("node-b.jsonl")).value_or(""));
  std::size_t gate = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (contains(b[i], "\"kind\":\"step\"") && contains(b[i], "\"step\":\"gate\"")) gate = i;
  }
  EXPECT_GT(gate, 0u);
  std::string cut;
  for (std::size_t i = 0; i <= gate + 10 && i < b.size(); ++i) cut += b[i] + "\n";
  cut += b.at(gate + 11).substr(0, b.at(gate + 11).size() / 2);
  p2p::write_text_file_atomically(dir.file("node-b.jsonl"), cut);
  return files;
}

TEST(FleetCli, NodeWritesOneLinePerItemAndEndsWithItsExitCode) {
  const CliResult r = run("node --fixture-host " + kHosts + "node-a --jsonl -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_GT(lines.size(), 120u);
  std::vector<std::string> steps;
  for (const auto& l : lines) {
    const auto j = nlohmann::json::parse(l);  // every line is JSON of its own
    EXPECT_EQ(j.at("schema"), "p2pcheck.jsonl");
    EXPECT_EQ(j.at("host"), "node-a");
    if (j.at("kind") == "step") steps.push_back(j.at("record").at("step"));
  }
  EXPECT_EQ(steps, (std::vector<std::string>{"doctor", "topo", "gate", "bench"}));
  EXPECT_EQ(nlohmann::json::parse(lines.front()).at("kind"), "run_start");
  EXPECT_EQ(nlohmann::json::parse(lines[1]).at("kind"), "host");
  EXPECT_EQ(nlohmann::json::parse(lines.back()).at("kind"), "run_end");
  EXPECT_TRUE(contains(r.err, "p2pcheck node on node-a: PASS — 4 checks, 0 failed"))
      << r.err;  // progress moved off stdout
  // The run_end line carries the host's verdict for whoever reads the file without merging it.
  const auto end = nlohmann::json::parse(lines.back()).at("record");
  EXPECT_EQ(end.at("exit_code"), 0);
  EXPECT_EQ(end.at("verdict").at("headline"), "PASS");
  // The bench step's caveat travels in the host's verdict, for the fleet to judge.
  ASSERT_EQ(end.at("verdict").at("caveats").size(), 1u) << end.dump();
  EXPECT_EQ(end.at("verdict").at("caveats").at(0).at("kind"), "logical");
  EXPECT_TRUE(contains(r.err, "\ncaveats: logical (")) << r.err;
}

TEST(FleetCli, MergeNamesTheOddTheSlowAndTheMissingHostAndLosesNothingElse) {
  p2p::TempDir dir;
  const std::string files = node_files(dir);
  const std::string doc = dir.file("cluster.json"), xml = dir.file("cluster.xml");
  const CliResult r = run("merge" + files + kAllowLogical + " --json " + doc + " --junit " + xml);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "node-b  NO RESULT")) << r.out;
  EXPECT_TRUE(contains(r.out, "no result: stopped after step `gate`")) << r.out;
  EXPECT_TRUE(contains(r.out, "node-c: 28 difference(s)")) << r.out;
  EXPECT_TRUE(contains(r.out, "bandwidth ce_unidir_write gpu0->gpu1 64MiB: node-d")) << r.out;
  // One verdict last: FAIL, and the fleet gate's reasons first.
  EXPECT_EQ(
      lines_of(r.out).back(),
      "p2pcheck merge: FAIL — fleet_gate fleet: node-b: no result (last completed step: "
      "gate); node-c: pair classes differ from the majority (3 of 4 hosts) [caveats: logical]");
  EXPECT_TRUE(contains(r.out, "  FAIL  host node-d: 1 figure(s) far worse than the fleet's median"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "  ERROR host node-b: no result: stopped after step `gate`"))
      << r.out;
  p2p::testing::expect_fleet_verdict(p2p::read_json_file(doc));
  // node-b's ten whole figures count; the cut one is noted, not an error.
  const auto j = p2p::read_json_file(doc);
  EXPECT_EQ(p2p::testing::host_entry(j, "node-b").at("figures_ok"), 10);
  EXPECT_EQ(p2p::testing::host_entry(j, "node-b").at("notes").size(), 1u);
  const std::string junit = p2p::try_read_text_file(xml).value_or("");
  EXPECT_TRUE(contains(junit, "fleet/host/node-b")) << junit.substr(0, 400);
  if (p2p::testing::have_command("xmllint")) {
    EXPECT_EQ(p2p::testing::junit_problems(xml), "");
  }
}

TEST(FleetCli, AGoldenTopologyDecidesWhichHostIsOdd) {
  p2p::TempDir dir;
  const std::string files = node_files(dir);
  const std::string doc = dir.file("cluster.json");
  const CliResult r =
      run("merge" + files + kAllowLogical + " --expect " + std::string(P2P_SOURCE_DIR) +
          "/topology/tests/fixtures/rtxpro6000-lxc.xml --json " + doc);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // The old name still works, and says which name to use.
  const CliResult old =
      run("merge" + files + kAllowLogical + " --golden " + std::string(P2P_SOURCE_DIR) +
          "/topology/tests/fixtures/rtxpro6000-lxc.xml");
  EXPECT_EQ(old.exit_code, 1) << old.err;
  EXPECT_TRUE(contains(old.err, "p2pcheck: warning: merge: --golden is deprecated; use --expect"))
      << old.err;
  const auto j = p2p::read_json_file(doc);
  EXPECT_EQ(p2p::testing::host_entry(j, "node-c").at("topology").at("match"), "same");
  EXPECT_EQ(p2p::testing::host_entry(j, "node-a").at("topology").at("match"), "differs");
  EXPECT_TRUE(contains(j.at("gate").at("topology_reference").get<std::string>(), "golden "))
      << j.at("gate");
}

TEST(FleetCli, AHealthyFleetExitsZero) {
  p2p::TempDir dir;
  std::string files;
  for (const char* h : {"node-a", "node-a", "node-a"}) {
    const std::string out = dir.file(std::string(h) + std::to_string(files.size()) + ".jsonl");
    ASSERT_EQ(run("node --fixture-host " + kHosts + h + " --jsonl " + out).exit_code, 0);
    files += " " + out;
  }
  const CliResult r = run("merge" + files + kAllowLogical);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Accepted, the caveat still shows: each host passes with a warning, the fleet names it.
  EXPECT_EQ(lines_of(r.out).back().rfind("p2pcheck merge: PASS with warnings — ", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.out, "\ncaveats: logical (node-a (")) << r.out;
}

// The same three healthy hosts without --allow-caveat: a run on logical GPUs measured the tool,
// not the host's links, so no host passes as whole and the fleet fails, saying why last.
TEST(FleetCli, AHostCaveatFailsTheFleet) {
  p2p::TempDir dir;
  std::string files;
  for (int i = 0; i < 3; ++i) {
    const std::string out = dir.file("node-a" + std::to_string(i) + ".jsonl");
    ASSERT_EQ(run("node --fixture-host " + kHosts + "node-a --jsonl " + out).exit_code, 0);
    files += " " + out;
  }
  const std::string doc = dir.file("cluster.json");
  const CliResult r = run("merge" + files + " --json " + doc);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string last = lines_of(r.out).back();
  EXPECT_EQ(last.rfind("p2pcheck merge: FAIL — host node-a (", 0), 0u) << r.out;
  EXPECT_TRUE(contains(last, ": its run is logical (")) << last;
  EXPECT_TRUE(contains(last, "--allow-caveat logical accepts it")) << last;
  const auto j = p2p::read_json_file(doc);
  const auto& host = j.at("hosts").at(0);
  EXPECT_EQ(host.at("status"), "fail");
  EXPECT_EQ(host.at("caveats").at(0).at("kind"), "logical");
  EXPECT_EQ(j.at("verdict").at("caveats").at(0).at("kind"), "logical");
  // An --allow-caveat word that is not a caveat is bad input.
  EXPECT_EQ(run("merge" + files + " --allow-caveat slow").exit_code, 2);
}

// One host's file that cannot be read (missing, or a bad line) is that host's NO RESULT with the
// reason; the rest of the fleet is judged, and the fleet fails (exit 1), never exit 2 for all.
TEST(FleetCli, AnUnreadableHostFileIsThatHostsNoResult) {
  p2p::TempDir dir;
  const std::string bad = dir.file("bad.jsonl"), absent = dir.file("absent.jsonl");
  p2p::write_text_file_atomically(bad, "{\"schema\":\"p2pcheck.jsonl\"\nnot json\n");
  const std::string lines = std::string(P2P_SOURCE_DIR) + "/cluster/tests/fixtures/lines/";
  const CliResult r = run("merge " + lines + "node-a.jsonl " + lines + "node-b.jsonl " + bad + " " +
                          absent + " --json -");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> status;
  for (const auto& h : j.at("hosts")) status[h.at("host")] = h.at("status");
  EXPECT_EQ(status["node-a"], "pass");
  EXPECT_EQ(status["node-b"], "pass");
  EXPECT_EQ(status[bad], "no_result");
  EXPECT_EQ(status[absent], "no_result");
  const std::string reasons = j.at("gate").at("reasons").dump();
  EXPECT_TRUE(contains(reasons, bad + ":1: not valid JSON")) << reasons;
  EXPECT_TRUE(contains(reasons, absent + ": cannot read")) << reasons;
}

TEST(FleetCli, BadInputIsOneLineAndExitTwo) {
  p2p::TempDir dir;
  CliResult r;

  r = run("node --fixture-host " + dir.file("nowhere") + " --jsonl " + dir.file("x.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "nowhere/host.json")) << r.err;
  EXPECT_FALSE(
      p2p::try_read_text_file(dir.file("x.jsonl")));  // nothing written before the inputs were read

  // A misspelt key in a fixture's manifest is named, not ignored.
  std::filesystem::create_directories(dir.file("typo"));
  p2p::write_text_file_atomically(
      dir.file("typo/host.json"),
      R"({"hostname": "n", "facts": "f.json", "topology": "t.xml", "figure": "r.json"})");
  r = run("node --fixture-host " + dir.file("typo") + " --jsonl " + dir.file("y.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, dir.file("typo/host.json") + ": key 'figures' not found")) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;

  r = run("merge " + dir.file("a.jsonl") + " --expect " + dir.file("no-golden.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "no-golden.json")) << r.err;
}

TEST(FleetCli, ClusterWithoutMpiSaysHowToGetIt) {
#if P2P_HAVE_MPI
  GTEST_SKIP() << "this build has MPI: cluster_mpi_cli_test runs cluster under mpirun";
#else
  const CliResult r = run("cluster --fixture-host " + kHosts + "node-a");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "built without MPI")) << r.err;
  EXPECT_TRUE(contains(r.err, "libopenmpi-dev")) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u);
#endif
}

TEST(FleetCli, TheFixtureOptionIsHiddenFromHelp) {
  for (const char* cmd : {"node", "cluster"}) {
    const CliResult r = run(std::string(cmd) + " --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_FALSE(contains(r.out, "fixture")) << cmd;
  }
}

}  // namespace
