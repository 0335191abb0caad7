// scripts/p2pcheck-all.sh, the main job: every step's exit code and verdict line above, and one
// last line saying PASS only when every step passed, else FAIL with the first failing step's own
// verdict. Run with a stand-in p2pcheck that answers each subcommand as a host would, so the
// script's own logic is tested on any host (the real chain runs on GPU hosts: pipelines/).
#include <gtest/gtest.h>

#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

struct MainJob {
  p2p::TempDir dir{"p2p_main_job"};
  // A stand-in p2pcheck: `bench` prints BENCH_LINE and exits BENCH_RC, the rest pass.
  p2p::testing::CliResult run(const std::string& bench_line, int bench_rc,
                              const std::string& gate = "echo 'p2pcheck gate: PASS'") const {
    const std::string fake = dir.file("p2pcheck");
    p2p::write_text_file_atomically(
        fake,
        "#!/usr/bin/env bash\ncase $1 in\n"
        "  doctor) echo 'Verdict: healthy'; echo 'p2pcheck doctor: PASS — healthy: CUDA works on "
        "8 GPU(s)';;\n"
        "  topo) echo 'GPU0 ...'; echo 'p2pcheck topo: PASS — 8 GPUs';;\n"
        "  gate) " +
            gate +
            ";;\n"
            "  bench) echo 'tables'; echo '" +
            bench_line + "'; exit " + std::to_string(bench_rc) +
            ";;\n"
            "  nccl) echo 'p2pcheck nccl: PASS — 40 checks, 0 failed, 0 warnings';;\n"
            "  report) exit 0;;\n"
            "esac\n");
    p2p::testing::run_captured("chmod +x '" + fake + "'");
    return p2p::testing::run_captured("cd '" + std::string(P2P_SOURCE_DIR) +
                                      "' && P2P_SKIP_SETUP=1 P2PCHECK_BIN='" + fake +
                                      "' scripts/p2pcheck-all.sh '" + dir.file("out") + "'");
  }
};

std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of('\n');
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

TEST(MainJob, EveryStepPassingEndsInOnePassLine) {
  const MainJob job;
  const auto r = job.run("p2pcheck bench: PASS — 121 checks, 0 failed, 0 warnings", 0);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(last_line(r.out), "p2pcheck-all: PASS (exit 0)") << r.out;
  EXPECT_NE(r.out.find("  bench  exit 0   p2pcheck bench: PASS"), std::string::npos) << r.out;
}

TEST(MainJob, AFailingStepFailsTheJobWithThatStepsOwnReasonLast) {
  const MainJob job;
  const auto r =
      job.run("p2pcheck bench: FAIL — shared run: another process used a measured GPU", 1);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(last_line(r.out),
            "p2pcheck-all: FAIL (exit 1) — bench: p2pcheck bench: FAIL — shared run: another "
            "process used a measured GPU")
      << r.out;
  // Every step is listed, the passing ones too.
  EXPECT_NE(r.out.find("  doctor exit 0   p2pcheck doctor: PASS — healthy"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  topo   exit 0   p2pcheck topo: PASS — 8 GPUs"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  nccl   exit 0   p2pcheck nccl: PASS"), std::string::npos) << r.out;
}

// A gate blocked by the environment (NCCL_P2P_DISABLE): the last line names the variable, not
// only how many reasons blocked. Every command's last line has one grammar, so one pattern finds
// each step's verdict (the gate's header line is not it).
TEST(MainJob, ABlockedGateEndsTheJobNamingItsFirstBlockingReason) {
  const MainJob job;
  const auto r =
      job.run("unused", 0,
              "echo 'gate: BLOCKED (1 blocking reason)'; echo '  BLOCK   env.p2p  x'; echo "
              "'p2pcheck gate: BLOCKED — env.p2p: NCCL_P2P_DISABLE=1 in the environment (1 "
              "blocking reason)'; exit 1");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(last_line(r.out),
            "p2pcheck-all: FAIL (exit 1) — gate: p2pcheck gate: BLOCKED — env.p2p: "
            "NCCL_P2P_DISABLE=1 in the environment (1 blocking reason)")
      << r.out;
  EXPECT_EQ(r.out.find("== bench:"), std::string::npos) << "nothing is measured after a block";
}

}  // namespace
