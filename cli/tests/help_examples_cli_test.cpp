// Every example at the foot of every --help runs as shown. The files the examples read stand
// in a scratch folder under the names the examples use, each a copy of a real capture or kept
// run; what the examples write lands there too. Measuring commands (bench, nccl, infer, node,
// cluster) meet, where CUDA is built, a stand-in driver that fails cuInit: they parse and start
// but never measure, so this test runs on a GPU host as fast as anywhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli/tests/help_walk.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

namespace fs = std::filesystem;
using p2p::testing::CliResult;

// Each name an example reads, and the file of this repository it stands for.
const std::map<std::string, std::string> kStandIns = {
    {"run.json", "results/h200-vm-2026-12-02/h200-bench.json"},
    {"baseline.json", "results/h200-vm-2026-12-02/h200-bench.json"},
    {"host-facts.json", "results/h200-vm-2026-12-02/h200-facts.json"},
    {"golden.json", "results/h200-vm-2026-12-02/h200-topology.json"},
    {"policy.json", "results/policies/default.json"},
    {"topo.txt", "import/tests/fixtures/h200-topo-m.txt"},
    {"vm-topo.txt", "import/tests/fixtures/rtxpro6000-vm-topo.txt"},
    {"lxc-topo.txt", "import/tests/fixtures/rtxpro6000-lxc-topo.txt"},
    {"lxc-p2p.txt", "import/tests/fixtures/rtxpro6000-lxc-p2p-w.txt"},
    {"vm-after.json", "vm/tests/fixtures/seed/rtxpro6000-vm-after-cliques.json"},
    {"host.xml", "topology/tests/fixtures/rtxpro6000-lxc.xml"},
    {"guest-facts.json", "doctor/tests/fixtures/vfio-bad-clique.json"},
    {"nccl-info.log", "nccl/tests/fixtures/p2p_direct_2gpu.log"},
    {"nvbandwidth.txt", "import/tests/fixtures/nvbandwidth-v0.8-h200.txt"},
    {"all_reduce.txt", "import/tests/fixtures/nccl-tests-2.19.6-h200-all_reduce.txt"},
    {"pasted.txt", "import/tests/fixtures/pastes/nccl-392-unmarked-header-old-layout.txt"},
    {"config.json", "infer/tests/fixtures/llama-3-70b-config.json"},
    {"node-a.jsonl", "cluster/tests/fixtures/lines/node-a.jsonl"},
    {"node-b.jsonl", "cluster/tests/fixtures/lines/node-b.jsonl"},
};

class HelpExamples : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& [name, source] : kStandIns) {
      fs::copy_file(fs::path(P2P_SOURCE_DIR) / source, dir_ / name);
    }
#ifdef P2P_FAKE_LIBCUDA
    fs::create_directory(dir_ / "driver");
    fs::create_symlink(P2P_FAKE_LIBCUDA, dir_ / "driver" / "libcuda.so.1");
    environment_ = "LD_LIBRARY_PATH='" + (dir_ / "driver").string() + "' P2P_FAKE_CUINIT=100 ";
#endif
  }

  // The example run from the scratch folder, `p2pcheck` being the built executable; a line
  // that starts with a launcher (mpirun ...) is not run.
  CliResult run(const std::string& example) const {
    const std::string rest = example.substr(std::string("p2pcheck").size());
    return p2p::testing::run_captured("cd '" + dir_.string() + "' && " + environment_ +
                                      "timeout 300 " + P2PCHECK_EXE + rest);
  }

  p2p::TempDir tmp_{"p2p_help_examples"};
  fs::path dir_{tmp_.path()};
  std::string environment_;
};

TEST_F(HelpExamples, EveryOneRunsAsShown) {
  int ran = 0;
  for (const std::string& path : p2p::testing::command_paths()) {
    const std::string name = path.empty() ? "p2pcheck" : "p2pcheck " + path;
    int own = 0;
    for (const std::string& example : p2p::testing::examples_in(p2p::testing::help_of(path))) {
      if (example.rfind("p2pcheck ", 0) != 0) continue;
      SCOPED_TRACE(example);
      own += example.rfind(name + " ", 0) == 0 || path.empty() ? 1 : 0;
      const CliResult r = run(example);
      ++ran;
      // Whatever the host, never bad input; a build without a part may say so (exit 2 for
      // cluster without MPI), but nothing runs out of time or dies of a signal.
      const bool built_without = r.err.find("built without") != std::string::npos;
      EXPECT_TRUE(r.exit_code != 2 || built_without) << r.err;
      EXPECT_LT(r.exit_code, 124) << r.err;
    }
    EXPECT_GT(own, 0) << name << " --help has no example that runs it";
  }
  EXPECT_GT(ran, 30);
}

}  // namespace
