// `p2pcheck infer` as a user runs it, in any build: --list needs no GPU; bad models and options
// are one line naming the problem, exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace p2p {
namespace {

const std::string kExe = P2PCHECK_EXE;
const std::string kSource = P2P_SOURCE_DIR;

testing::CliResult infer(const std::string& args) {
  return testing::run_captured("'" + kExe + "' infer " + args);
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(InferList, PrintsMessagesCallsAndGroupsFromATopologyFile) {
  const auto r =
      infer("--list --model " + kSource +
            "/infer/tests/fixtures/llama-3-70b-config.json --topology " + kSource +
            "/topology/tests/fixtures/rtxpro6000-lxc.xml --tp 2,4,8 --batch 1,32 --prefill 2048");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(
                "hidden 8192 (hidden_size), 80 layers (num_hidden_layers), bfloat16 (torch_dtype)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("all-reduces per step: 160"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("decode_b1"), std::string::npos);
  EXPECT_NE(r.out.find("16 KiB"), std::string::npos) << r.out;  // 1 x 8192 x 2
  EXPECT_NE(r.out.find("32 MiB"), std::string::npos) << r.out;  // 2048 x 8192 x 2
  EXPECT_NE(r.out.find("TP=4: 3 groups to measure"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPUs 0-3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NODE x2 + SYS x4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TP=8: 1 group to measure"), std::string::npos) << r.out;
}

TEST(InferList, WorksFromHiddenSizeAndWithLogicalGpus) {
  const auto r = infer(
      "--list --hidden 4096 --layers 32 --dtype fp16 --tp 2,4 --batch 8 --no-prefill --logical-gpus 4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("all-reduces per step: 64"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("64 KiB"), std::string::npos) << r.out;  // 8 x 4096 x 2
  EXPECT_EQ(r.out.find("prefill_t"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("logical"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TP=4: 1 group"), std::string::npos) << r.out;
}

TEST(InferList, AHostWithoutGpusStillPrintsThePlan) {
  // On the CPU-only CI host there is no GPU topology; on a GPU host there is one. Either way the
  // plan is printed and the exit code is 0.
  const auto r = infer("--list --hidden 8192 --tp 2 --batch 1 --no-prefill");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("decode_b1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("80 layers (--layers)"), std::string::npos) << r.out;
}

TEST(InferErrors, BadModelsAndOptionsAreOneLineExitTwo) {
  struct Case {
    std::string args;
    std::string says;
  };
  const std::string fixtures = kSource + "/infer/tests/fixtures/";
  const Case cases[] = {
      {"--list --model /nonexistent/config.json", "/nonexistent/config.json"},
      {"--list --model " + fixtures + "README.md", "not valid JSON"},
      {"--list", "--model FILE or --hidden N"},
      {"--list --hidden 8192 --model " + fixtures + "llama-3-70b-config.json", "one of them"},
      {"--list --model " + fixtures + "llama-3-70b-config.json --layers 3",
       "--layers goes with --hidden"},
      {"--list --hidden 8192 --tp 1", "--tp: 1 is outside"},
      {"--list --hidden 8192 --batch 0", "--batch: 0 is outside"},
      {"--list --hidden 8192 --dtype int4", "--dtype: `int4`"},
      {"--list --hidden 8192 --topology /nonexistent.xml", "/nonexistent.xml"},
      {"--hidden 8192 --topology " + kSource + "/topology/tests/fixtures/rtxpro6000-lxc.xml",
       "--topology goes with --list"},
      {"--list --hidden 8192 --frobnicate", "frobnicate"},
      {"--hidden 8192 --budget-us-per-token abc", "--budget-us-per-token: `abc`"},
      {"--hidden 8192 --batch 1,32 --budget-us-per-token 8:20",
       "batch 8 is not one of the --batch sizes"},
      {"--hidden 8192 --batch 1,32 --rank-batch 4", "--rank-batch: 4"},
  };
  for (const Case& c : cases) {
    const auto r = infer(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << c.args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST(InferErrors, MeasuringWithoutAUsableGpuIsExitThree) {
  // No device visible (or a build without NCCL): one line, exit 3, nothing on stdout.
  const auto r = testing::run_captured("CUDA_VISIBLE_DEVICES= '" + kExe +
                                       "' infer --hidden 1024 --tp 2 --batch 1 --no-prefill");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(InferErrors, AConfigWithoutHiddenSizeNamesTheFileAndKey) {
  const TempDir tmp("p2p_infer_cfg");
  const std::string path = tmp.file("config.json");
  std::ofstream(path) << R"({"num_hidden_layers": 2, "torch_dtype": "bfloat16"})";
  const auto r = infer("--list --model " + path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(path + ": key `hidden_size`: missing"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace p2p
