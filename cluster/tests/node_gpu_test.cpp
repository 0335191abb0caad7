// `p2pcheck node` on this host's GPU (no fixture): the chain runs doctor, topology, gate and a
// small bench over two logical GPUs, every figure arrives as a verified line, and merge reads
// the file back: a host whose run is logical fails the fleet unless the logical caveat is
// accepted, then passes. Skips, with the reason, where no GPU is usable.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bench/measure/no_gpu.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

const std::string kExe = P2PCHECK_EXE;

// 16 MiB copies: the smallest the default policy judges (min_judged_bytes); a run whose copies are
// all smaller has none of its bandwidth judged, and fails saying so.
TEST(NodeGpu, TheLiveChainStreamsVerifiedFiguresThatMergeReads) {
  const auto why = p2p::bench::no_gpu_reason(p2p::bench::probe_cuda());
  if (why) GTEST_SKIP() << "no usable GPU: " << *why;
  const p2p::TempDir tmp("p2p_node_gpu");
  const std::string lines = tmp.file("node.jsonl");
  const auto r = p2p::testing::run_captured(
      kExe + " node --jsonl " + lines + " --policy " + P2P_SOURCE_DIR +
      "/results/policies/single-gpu-smoke.json --logical-gpus 2 --sizes 16M "
      "--samples 2");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::istringstream in(p2p::try_read_text_file(lines).value_or(""));
  std::vector<std::string> steps;
  int ok = 0;
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j.at("kind") == "step") steps.push_back(j.at("record").at("step"));
    if (j.at("kind") == "bandwidth" || j.at("kind") == "latency") {
      ok += j.at("record").at("status") == "ok";
      EXPECT_NE(j.at("record").at("status"), "failed") << line;
    }
  }
  EXPECT_EQ(steps, (std::vector<std::string>{"doctor", "topo", "gate", "bench"}));
  EXPECT_GT(ok, 0);
  const auto strict =
      p2p::testing::run_captured(kExe + " merge " + lines + " --json " + tmp.file("strict.json"));
  EXPECT_EQ(strict.exit_code, 1) << strict.out << strict.err;
  EXPECT_NE(strict.out.find("its run is logical"), std::string::npos) << strict.out;
  EXPECT_EQ(p2p::read_json_file(tmp.file("strict.json")).at("hosts").at(0).at("status"), "fail");
  const auto m = p2p::testing::run_captured(kExe + " merge " + lines + " --allow-caveat logical" +
                                            " --json " + tmp.file("cluster.json"));
  EXPECT_EQ(m.exit_code, 0) << m.out << m.err;
  const auto doc = p2p::read_json_file(tmp.file("cluster.json"));
  EXPECT_EQ(doc.at("hosts").at(0).at("status"), "pass");
  EXPECT_EQ(doc.at("hosts").at(0).at("figures_ok"), ok);
}

}  // namespace
