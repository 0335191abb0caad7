// The cluster launch examples in scripts/cluster/ read as their launchers would: the Kubernetes
// MPIJob parsed by a YAML parser (PyYAML; skipped, with the reason, without it), the sbatch
// script's #SBATCH directives and its srun line, the hostfile's lines, and mpirun-cluster.sh run
// for real over a one-host hostfile (this machine, a fixture host) where mpirun and an MPI
// build are there.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"
#include "common/testing/yaml_as_json.hpp"

namespace {

const std::string kSource = P2P_SOURCE_DIR;
const std::string kDir = kSource + "/scripts/cluster/";

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

using p2p::testing::yaml_as_json;

std::string joined(const nlohmann::json& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w.get<std::string>();
  return out;
}

TEST(ClusterExamples, MpiJobHasALauncherAndOneSlotPerGpuWorker) {
  std::string why;
  const auto job = yaml_as_json(kDir + "mpijob.yaml", why);
  if (job.is_null()) {
    ASSERT_TRUE(contains(why, "PyYAML")) << "mpijob.yaml is not valid YAML: " << why;
    GTEST_SKIP() << why;
  }
  EXPECT_EQ(job.at("apiVersion"), "kubeflow.org/v2beta1");
  EXPECT_EQ(job.at("kind"), "MPIJob");
  const auto& spec = job.at("spec");
  EXPECT_EQ(spec.at("slotsPerWorker"), 1);  // one rank per host: the chain measures all its GPUs
  const auto& launcher = spec.at("mpiReplicaSpecs").at("Launcher");
  EXPECT_EQ(launcher.at("replicas"), 1);
  const auto& worker = spec.at("mpiReplicaSpecs").at("Worker");
  const int workers = worker.at("replicas").get<int>();
  EXPECT_GE(workers, 2);
  const auto& wc = worker.at("template").at("spec").at("containers").at(0);
  EXPECT_GE(wc.at("resources").at("limits").at("nvidia.com/gpu").get<int>(), 1);
  EXPECT_EQ(wc.at("volumeMounts").at(0).at("mountPath"), "/results");
  const std::string command =
      joined(launcher.at("template").at("spec").at("containers").at(0).at("command"));
  EXPECT_EQ(command.rfind("mpirun ", 0), 0u) << command;
  EXPECT_TRUE(contains(command, "-np " + std::to_string(workers) + " "))
      << "one rank per worker: " << command;
  EXPECT_TRUE(contains(command, "p2pcheck cluster")) << command;
  for (const char* out : {"--json /results/", "--junit /results/", "--lines-dir /results/"})
    EXPECT_TRUE(contains(command, out)) << out << " in " << command;
}

TEST(ClusterExamples, SbatchRunsOneTaskPerNodeWithinItsTimeLimit) {
  const std::string text = p2p::read_text_file(kDir + "slurm-cluster.sbatch");
  EXPECT_EQ(p2p::testing::run_captured("bash -n '" + kDir + "slurm-cluster.sbatch'").exit_code, 0);
  EXPECT_TRUE(contains(text, "#SBATCH --ntasks-per-node=1\n"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex("#SBATCH --nodes=(\\d+)")));
  EXPECT_GE(std::stoi(m[1]), 2);
  ASSERT_TRUE(std::regex_search(text, m, std::regex("#SBATCH --time=(\\d\\d):(\\d\\d):(\\d\\d)")));
  const int limit_s = std::stoi(m[1]) * 3600 + std::stoi(m[2]) * 60 + std::stoi(m[3]);
  ASSERT_TRUE(std::regex_search(text, m, std::regex("--deadline (\\d+)")));
  EXPECT_LT(std::stoi(m[1]), limit_s) << "rank 0 must merge before Slurm ends the job";
  EXPECT_TRUE(std::regex_search(text, std::regex("srun [^\\n]*\"\\$P2PCHECK\" cluster")));
  for (const char* out : {"--json \"$OUT/cluster.json\"", "--junit \"$OUT/cluster.xml\"",
                          "--lines-dir \"$OUT/lines\""})
    EXPECT_TRUE(contains(text, out)) << out;
}

TEST(ClusterExamples, HostfileNamesOneSlotPerHost) {
  std::istringstream in(p2p::read_text_file(kDir + "hostfile.example"));
  int hosts = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_TRUE(std::regex_match(line, std::regex("[A-Za-z0-9.-]+ slots=1"))) << line;
    ++hosts;
  }
  EXPECT_GE(hosts, 2);
}

TEST(ClusterExamples, MpirunScriptRunsAOneHostFleet) {
#if !P2P_HAVE_MPI
  GTEST_SKIP() << "built without MPI: cluster is not available";
#else
  if (p2p::testing::run_captured("command -v mpirun").exit_code != 0)
    GTEST_SKIP() << "mpirun not installed";
  const p2p::TempDir tmp("p2p_cluster");
  const std::string& dir = tmp.path();
  p2p::write_text_file_atomically(dir + "/hostfile", "# this machine\nlocalhost slots=1\n");
  // The fixture host's figures were measured on logical GPUs: accepted, they pass with a warning.
  const auto r = p2p::testing::run_captured(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 P2PCHECK=" +
      std::string(P2PCHECK_EXE) + " timeout -k 10 120 '" + kDir + "mpirun-cluster.sh' " + dir +
      "/hostfile " + dir + "/out --fixture-host " + kSource +
      "/cluster/tests/fixtures/hosts/node-a --allow-caveat logical");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "\np2pcheck cluster: PASS with warnings — ")) << r.out;
  const auto doc = p2p::read_json_file(dir + "/out/cluster.json");
  EXPECT_EQ(doc.at("hosts").at(0).at("host"), "node-a");
  EXPECT_TRUE(p2p::try_read_text_file(dir + "/out/cluster.xml"));
  EXPECT_TRUE(p2p::try_read_text_file(dir + "/out/lines/node-a-rank0.jsonl"));
  // Bad use is said on one line with exit 2.
  const auto bad =
      p2p::testing::run_captured("'" + kDir + "mpirun-cluster.sh' /nonexistent/hostfile /tmp/x");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "cannot read the hostfile")) << bad.err;
#endif
}

}  // namespace
