// Runs the built p2pcheck binary: exit codes, output, one-line errors, nothing written on error.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

extern char** environ;
namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

std::string fixture(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/fixtures/" + name;
}
std::string golden(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/topology/tests/golden/" + name;
}

std::size_t count_lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

class Cli : public ::testing::Test {
 protected:
  Result run(std::vector<std::string> args) {
    args.insert(args.begin(), P2PCHECK_EXE);
    const std::string out_path = (dir_ / "stdout").string(), err_path = (dir_ / "stderr").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    Result r;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
      posix_spawn_file_actions_destroy(&actions);
      ADD_FAILURE() << "cannot start " << argv[0];
      return r;
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = p2p::try_read_text_file(out_path).value_or("");
    r.err = p2p::try_read_text_file(err_path).value_or("");
    return r;
  }

  // Exit 2, nothing on stdout, exactly one stderr line naming `thing` and `problem`, no --json
  // file.
  void expect_bad_input(std::vector<std::string> args, const std::string& thing,
                        const std::string& problem) {
    const std::string saved = (dir_ / "saved.json").string();
    args.push_back("--json");
    args.push_back(saved);
    const Result r = run(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("p2pcheck: error: " + thing + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(saved));
  }

  std::string write(const std::string& name, const std::string& content) {
    std::ofstream((dir_ / name).string(), std::ios::binary) << content;
    return (dir_ / name).string();
  }

  p2p::TempDir tmp_{"p2p_cli"};
  fs::path dir_{tmp_.path()};
};

TEST_F(Cli, VersionAndHelp) {
  EXPECT_EQ(run({"--version"}).exit_code, 0);
  const Result topo_help = run({"topo", "--help"});
  EXPECT_EQ(topo_help.exit_code, 0);
  EXPECT_NE(topo_help.out.find("--input"), std::string::npos);
  EXPECT_EQ(run({"gate", "--help"}).exit_code, 0);
  EXPECT_EQ(run({"topo", "diff", "--help"}).exit_code, 0);
}

TEST_F(Cli, TopoTextShowsTheMatrixLegendAndEnvironment) {
  const Result r = run({"topo", "--input", fixture("rtxpro6000-lxc.xml"), "--environment",
                        fixture("rtxpro6000-lxc.environment.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.out.find("GPU0  GPU1  GPU2  GPU3  GPU4  GPU5  GPU6  GPU7  CPU Affinity  NUMA Affinity"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("GPU4  SYS   SYS   SYS   SYS   X     NODE  NODE  NODE  32-63         1"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("NODE = through PCIe and between PCIe host bridges"), std::string::npos);
  EXPECT_NE(r.out.find("Environment: container (container lxc"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, TopoJsonIsTheGoldenSnapshotAndSaveWritesTheSame) {
  const std::string saved = (dir_ / "vm.json").string();
  const Result r =
      run({"topo", "--input", fixture("rtxpro6000-vm.xml"), "--environment",
           fixture("rtxpro6000-vm.environment.json"), "--format", "json", "--json", saved});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(p2p::read_text_file(saved), r.out);
  std::ifstream in(golden("rtxpro6000-vm.json"));
  auto expected = nlohmann::json::parse(in);
  j.erase("source");
  expected.erase("source");
  EXPECT_EQ(j, expected);
}

TEST_F(Cli, TopoReadsItsOwnSnapshotBack) {
  const Result r = run({"topo", "--input", golden("pcie-switch.json"), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["matrix"][0][1], "NV12");
}

TEST_F(Cli, TopoBadInputIsOneLineExit2AndWritesNothing) {
  const std::string missing = (dir_ / "missing.xml").string();
  expect_bad_input({"topo", "--input", missing}, missing, "cannot read");
  const std::string text = write("notes.txt", "hello\n");
  expect_bad_input({"topo", "--input", text}, text, "neither an hwloc XML");
  const std::string v3 =
      write("v3.xml", "<?xml version=\"1.0\"?>\n<topology version=\"3.0\"></topology>\n");
  expect_bad_input({"topo", "--input", v3}, v3, "hwloc XML version 3.0 is not supported");
  const std::string v1 = write("v1.xml", "<?xml version=\"1.0\"?>\n<topology>\n</topology>\n");
  expect_bad_input({"topo", "--input", v1}, v1, "hwloc cannot load this XML");
  const std::string bad_json = write("bad.json", "{\"gpus\": [");
  expect_bad_input({"topo", "--input", bad_json}, bad_json, "not valid JSON");
  const std::string no_gpu = fixture("no-gpu.xml");
  const std::string no_numa =
      write("no-numa.xml",
            "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object type=\"Machine\" "
            "os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" gp_index=\"1\">\n"
            "<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
            "gp_index=\"2\"/>\n</object>\n</topology>\n");
  expect_bad_input({"topo", "--input", no_numa}, no_numa, "hwloc cannot load this XML");
  expect_bad_input({"topo", "--input", no_gpu}, no_gpu, "no NVIDIA GPU");
  const std::string bad_env = write("env.json", "[]");
  expect_bad_input({"topo", "--input", fixture("h200-vm.xml"), "--environment", bad_env}, bad_env,
                   "not p2pcheck environment facts");
}

TEST_F(Cli, SaveToAnUnwritablePlaceFailsWithoutOutput) {
  const std::string target = (dir_ / "no-such-dir" / "x.json").string();
  const Result r = run({"topo", "--input", fixture("h200-vm.xml"), "--json", target});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("--json " + target + ": the directory " + (dir_ / "no-such-dir").string() +
                       " does not exist"),
            std::string::npos)
      << r.err;
}

TEST_F(Cli, LiveTopoWorksOrSaysThereIsNoGpu) {
  const Result r = run({"topo"});
  if (r.exit_code == 3) {
    EXPECT_EQ(
        r.err,
        "p2pcheck: no usable GPU: no NVIDIA GPU (PCI vendor 0x10de, class 0x0300/0x0302) found on this host\n");
  } else {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Environment: "), std::string::npos);
  }
}

TEST_F(Cli, DiffExitCodes) {
  const Result differ =
      run({"topo", "diff", fixture("rtxpro6000-vm.xml"), fixture("rtxpro6000-lxc.xml")});
  EXPECT_EQ(differ.exit_code, 1) << differ.err;
  EXPECT_NE(differ.out.find("28 of 28 pairs changed class"), std::string::npos) << differ.out;
  EXPECT_NE(differ.out.find("GPU0-GPU4     PHB -> SYS"), std::string::npos) << differ.out;
  EXPECT_NE(differ.out.find("  PHB         28     0"), std::string::npos) << differ.out;
  EXPECT_NE(differ.out.find("  NODE         0    12"), std::string::npos) << differ.out;
  EXPECT_NE(differ.out.find("  SYS          0    16"), std::string::npos) << differ.out;

  const Result same =
      run({"topo", "diff", fixture("rtxpro6000-lxc.xml"), golden("rtxpro6000-lxc.json")});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("GPUs matched by PCI bus id"), std::string::npos);

  const Result json = run({"topo", "diff", fixture("rtxpro6000-vm.xml"),
                           golden("rtxpro6000-lxc.json"), "--format", "json"});
  EXPECT_EQ(json.exit_code, 1);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("changed").size(), 28u);
  EXPECT_EQ(j.at("counts_after").at("SYS"), 16);

  const std::string missing = (dir_ / "b.xml").string();
  const Result bad = run({"topo", "diff", fixture("rtxpro6000-vm.xml"), missing});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err.rfind("p2pcheck: error: " + missing + ": cannot read", 0), 0u) << bad.err;
  EXPECT_EQ(run({"topo", "diff", fixture("rtxpro6000-vm.xml")}).exit_code, 2);  // needs two
}

TEST_F(Cli, GateBlocksTheVmAgainstTheLxcGoldenAndPassesTheLxc) {
  const Result vm = run(
      {"gate", "--input", golden("rtxpro6000-vm.json"), "--expect", golden("rtxpro6000-lxc.json")});
  EXPECT_EQ(vm.exit_code, 1) << vm.err;
  EXPECT_NE(vm.out.find("gate: BLOCKED (28 blocking reasons)"), std::string::npos) << vm.out;
  // The 28 pairs in two lines, one per kind of difference, with their counts; the VM note first
  // and the next step last.
  std::size_t blocks = 0;
  for (std::size_t at = vm.out.find("BLOCK   expect.pair_class"); at != std::string::npos;
       at = vm.out.find("BLOCK   expect.pair_class", at + 1))
    ++blocks;
  EXPECT_EQ(blocks, 2u) << vm.out;
  EXPECT_NE(vm.out.find("PHB here, NODE in the golden topology: 12 pairs"), std::string::npos);
  EXPECT_NE(vm.out.find("PHB here, SYS in the golden topology: 16 pairs"), std::string::npos);
  EXPECT_LT(vm.out.find("this snapshot was taken in a VM"), vm.out.find("BLOCK   "));
  // The next step, then the last line every command ends with, naming the first blocking kind.
  const std::size_t last = vm.out.rfind('\n', vm.out.size() - 2) + 1;
  EXPECT_EQ(vm.out.substr(vm.out.rfind('\n', last - 2) + 1, 6), "next: ") << vm.out;
  EXPECT_EQ(vm.out.substr(last).rfind("p2pcheck gate: BLOCKED — expect.pair_class: PHB here, ", 0),
            0u)
      << vm.out;
  EXPECT_NE(vm.out.substr(last).find("(28 blocking reasons)\n"), std::string::npos) << vm.out;

  const Result lxc = run({"gate", "--input", fixture("rtxpro6000-lxc.xml"), "--expect",
                          golden("rtxpro6000-lxc.json")});
  EXPECT_EQ(lxc.exit_code, 0) << lxc.out;
  EXPECT_NE(lxc.out.find("gate: PASS"), std::string::npos);

  const Result json = run({"gate", "--input", fixture("rtxpro6000-vm.xml"), "--expect",
                           fixture("rtxpro6000-lxc.xml"), "--format", "json"});
  EXPECT_EQ(json.exit_code, 1);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("decision"), "blocked");
  EXPECT_EQ(j.at("blocking"), 28);
}

TEST_F(Cli, GatePolicy) {
  const std::string ok =
      write("ok.json", R"({"min_gpus": 8, "max_path": "SYS", "min_link": {"gen": 5, "width": 16},
                                             "require_p2p": true})");
  const Result pass = run({"gate", "--input", fixture("rtxpro6000-lxc.xml"), "--policy", ok});
  EXPECT_EQ(pass.exit_code, 0) << pass.out;
  EXPECT_NE(pass.out.find("require_p2p: needs a live CUDA check"), std::string::npos) << pass.out;

  const std::string strict = write("strict.json", R"({"forbid": ["SYS"]})");
  const Result blocked =
      run({"gate", "--input", fixture("rtxpro6000-lxc.xml"), "--policy", strict});
  EXPECT_EQ(blocked.exit_code, 1);
  EXPECT_NE(blocked.out.find("SYS is forbidden: 16 pairs (GPU0-GPU4,"), std::string::npos)
      << blocked.out;
}

TEST_F(Cli, GateExamplePolicyBlocksCrossSocketPairsButNotTheFlatVm) {
  // max_path is a rank rule: the VM's PHB is "closer" than NODE and passes it; that is why
  // --expect compares for equality instead.
  const std::string policy = fixture("policy-rtxpro6000.json");
  const Result lxc = run({"gate", "--input", golden("rtxpro6000-lxc.json"), "--policy", policy});
  EXPECT_EQ(lxc.exit_code, 1);
  EXPECT_NE(lxc.out.find("gate: BLOCKED (16 blocking reasons)"), std::string::npos) << lxc.out;
  const Result vm = run({"gate", "--input", golden("rtxpro6000-vm.json"), "--policy", policy});
  EXPECT_EQ(vm.exit_code, 0) << vm.out;
}

TEST_F(Cli, GateExpectGpusBlocksAHostThatShowsFewer) {
  // The H200 capture has one GPU: a host that must show two is blocked before it is measured.
  const Result r = run({"gate", "--input", fixture("h200-vm.xml"), "--expect-gpus", "2"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("1 GPUs, min_gpus 2"), std::string::npos) << r.out;
  const Result ok = run({"gate", "--input", fixture("h200-vm.xml"), "--expect-gpus", "1"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
}

TEST_F(Cli, GateBadInput) {
  const auto expect_exit2 = [&](std::vector<std::string> args, const std::string& prefix) {
    const Result r = run(args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("p2pcheck: error: " + prefix, 0), 0u) << r.err;
  };
  // A misspelt key is refused, naming the keys the gate and the acceptance thresholds know.
  const std::string unknown = write("unknown.json", R"({"max_path": "NODE", "min_bandwith": 50})");
  expect_exit2(
      {"gate", "--input", fixture("h200-vm.xml"), "--policy", unknown},
      unknown +
          ": unknown key 'min_bandwith' (known: min_gpus, max_path, forbid, "
          "min_link, require_p2p, require_cliques, min_bandwidth, thresholds, floors, models, hosts)");
  const std::string wrong = write("wrong.json", R"({"min_gpus": "eight"})");
  expect_exit2({"gate", "--input", fixture("h200-vm.xml"), "--policy", wrong},
               wrong + ": min_gpus: expected an integer");
  const std::string broken = write("broken.json", "{min_gpus: 8}");
  expect_exit2({"gate", "--input", fixture("h200-vm.xml"), "--policy", broken},
               broken + ": not valid JSON");
  const std::string missing = (dir_ / "golden.json").string();
  expect_exit2({"gate", "--input", fixture("h200-vm.xml"), "--expect", missing},
               missing + ": cannot read");
  expect_exit2({"gate", "--input", fixture("h200-vm.xml")}, "gate: nothing to check");
  EXPECT_EQ(run({"gate", "--format", "yaml", "--policy", wrong}).exit_code, 2);
}

}  // namespace
