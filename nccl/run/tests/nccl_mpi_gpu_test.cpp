// GPU test (label gpu) of `p2pcheck nccl --mpi` through mpirun and the built executable: four
// MPI processes on ONE GPU, each told by NCCL_HOSTID that it is a host of its own, so NCCL
// connects every pair over its network transport as it would between real hosts. Every
// collective must verify on the four "hosts", the transports between hosts must be NET/...,
// the host-pair matrix must be complete, and every process must leave its JSON lines.
// Skipped, with the reason, where NCCL, a GPU or mpirun is missing. As root, Open MPI's mpirun
// needs OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (set here).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "document/bench_document.hpp"
#include "nccl/run/nccl_api.hpp"
#include "nccl/run/tests/nccl_gpu_or_skip.hpp"

namespace p2p::nccl {
namespace {

// MPIRUN from the environment (the H200 carries Open MPI unpacked outside PATH), else the one
// CMake found.
std::string mpirun() {
  const char* env = std::getenv("MPIRUN");
  return env != nullptr && *env != '\0' ? env : P2P_MPIEXEC;
}

// MPIRUN_ARGS from the environment (scripts/mpi-nccl-one-gpu.sh sets it), e.g. "--mca pml ob1
// --mca btl self,tcp" where the default transports need a fabric the host lacks.
std::string launcher_args() {
  const char* env = std::getenv("MPIRUN_ARGS");
  return env != nullptr ? env : "";
}

class NcclMpiGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = p2p::testing::nccl_gpu_unusable()) GTEST_SKIP() << *why;
    const std::string launcher = mpirun();
    if (launcher.empty() || testing::run_captured("'" + launcher + "' --version").exit_code != 0) {
      GTEST_SKIP() << "no usable mpirun ("
                   << (launcher.empty() ? "none found at configure time" : launcher)
                   << "; set MPIRUN)";
    }
  }
  p2p::TempDir tmp_{"p2p_nccl_mpi_gpu_test"};
  std::string dir_{tmp_.path()};
};

TEST_F(NcclMpiGpu, FourHostsOnOneGpuVerifyEveryCollectiveOverTheNetwork) {
  const std::string json = dir_ + "/run.json", jsonl = dir_ + "/run.jsonl";
  const std::string p2pcheck =
      std::string("exec \"") + P2PCHECK_EXE +
      "\" nccl --mpi --skip-gate --devices 0 "
      "--min-bytes 1K --max-bytes 64K --step-factor 8 --iters 3 --warmup 1 --samples 3 "
      "--timeout 60 --json " +
      json + " --jsonl " + jsonl;
  const auto r =
      testing::run_captured("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '" +
                            mpirun() + "' --oversubscribe -np 4 " + launcher_args() +
                            " sh -c "
                            "'NCCL_HOSTID=h$OMPI_COMM_WORLD_RANK " +
                            p2pcheck + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  ASSERT_TRUE(std::filesystem::exists(json)) << r.err;
  const doc::NcclResultsSection report = doc::read_nccl_section(json);
  const doc::NcclRun& run = report.run;
  ASSERT_TRUE(run.cluster.has_value());
  const doc::NcclCluster& c = *run.cluster;
  EXPECT_EQ(c.processes, 4);
  EXPECT_EQ(c.hosts, (std::vector<std::string>{"h0", "h1", "h2", "h3"}));
  ASSERT_EQ(run.environment.devices.size(), 4u);
  for (const auto& d : run.environment.devices) {
    EXPECT_EQ(d.host_id, "h" + std::to_string(d.rank));
    EXPECT_FALSE(d.hostname.empty());
    EXPECT_FALSE(d.pci_bus_id.empty()) << d.rank;
  }
  EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
  std::set<std::string> collectives;
  for (const auto& res : run.results) {
    EXPECT_STREQ(doc::to_string(res.status), "ok")
        << res.collective << " " << res.size_bytes << ": " << res.detail;
    EXPECT_EQ(res.nranks, 4);
    EXPECT_EQ(res.wrong_elements.value_or(1), 0u) << res.collective << " " << res.size_bytes;
    collectives.insert(res.collective);
  }
  EXPECT_EQ(collectives.size(), 7u);
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (a == b) continue;
      const auto& t =
          c.host_transport[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)].transports;
      bool net = false;
      for (const auto& name : t) net |= name.rfind("NET/", 0) == 0;
      EXPECT_TRUE(net) << "host " << a << " -> " << b;
    }
  }
  // Four hosts: 3 rounds of 2 pairs, both ways.
  ASSERT_EQ(c.host_pairs.size(), 12u);
  std::set<std::pair<int, int>> directed;
  for (const auto& p : c.host_pairs) {
    EXPECT_STREQ(doc::to_string(p.status), "ok")
        << p.src_host << "->" << p.dst_host << ": " << p.detail;
    EXPECT_GT(p.algbw_gbps.value_or(0.0), 0.0);
    EXPECT_EQ(p.wrong_elements.value_or(1), 0u);
    directed.insert({p.src_host, p.dst_host});
  }
  EXPECT_EQ(directed.size(), 12u);
  EXPECT_NE(r.out.find("NCCL transport between hosts"), std::string::npos) << r.out;

  // Every process left its own lines, closed by run_end.
  for (int p = 0; p < 4; ++p) {
    std::ifstream in(dir_ + "/run.rank" + std::to_string(p) + ".jsonl");
    ASSERT_TRUE(in.good()) << "process " << p;
    std::string line, last;
    int cases = 0;
    while (std::getline(in, line)) {
      if (line.find("\"kind\":\"nccl_case\"") != std::string::npos) ++cases;
      last = line;
    }
    EXPECT_GT(cases, 0) << "process " << p;
    EXPECT_NE(last.find("\"kind\":\"run_end\""), std::string::npos)
        << "process " << p << ": " << last;
  }
}

}  // namespace
}  // namespace p2p::nccl
