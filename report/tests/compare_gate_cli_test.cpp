// `compare` as a regression gate, on the runs kept in results/ (real H200 captures), each edited
// only as the test says: the false greens it once gave are failures now, each with its reason.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "common/testing/run_captured.hpp"

namespace {

using p2p::testing::CliResult;

const std::string kOneGpu = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-one-gpu/";
const std::string kShared =
    std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-03-fleet/shared-gpu-rerun/";

CliResult compare(const std::string& args) {
  return p2p::testing::run_captured(std::string(P2PCHECK_EXE) + " compare " + args);
}

std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of('\n');
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The 8-logical-GPU run with every figure of gpu7 taken out, as when a GPU falls off the bus.
std::string without_gpu7(const p2p::TempDir& dir) {
  nlohmann::json d = p2p::read_json_file(kOneGpu + "bench-logical8.json");
  for (const char* key : {"bandwidth", "latency"}) {
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& f : d.at(key))
      if (f.at("src") != "gpu7" && f.at("dst") != "gpu7") kept.push_back(f);
    d[key] = kept;
  }
  const std::string path = dir.file("no-gpu7.json");
  p2p::write_text_file_atomically(path, d.dump());
  return path;
}

TEST(CompareGate, ALostGpuFailsAndJunitFilesItsFiguresAsFailures) {
  const p2p::TempDir dir;
  const std::string run = without_gpu7(dir);
  const CliResult r =
      compare(kOneGpu + "bench-logical8.json " + run + " --junit " + dir.file("c.xml"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(last_line(r.out).rfind("p2pcheck compare: FAIL", 0), 0u) << r.out;
  EXPECT_TRUE(has(last_line(r.out), "gpu7")) << r.out;
  EXPECT_TRUE(has(last_line(r.out), "missing")) << r.out;
  const std::string junit = p2p::read_text_file(dir.file("c.xml"));
  std::size_t failures = 0;
  for (std::size_t at = junit.find("<failure"); at != std::string::npos;
       at = junit.find("<failure", at + 1))
    ++failures;
  EXPECT_GT(failures, 100u) << "every missing figure of gpu7 is a failed case";
}

TEST(CompareGate, AMissingGpuPassesOnlyWhenTheUserSaysWhy) {
  const p2p::TempDir dir;
  const CliResult r = compare(kOneGpu + "bench-logical8.json " + without_gpu7(dir) +
                              " --allow-missing 'gpu7 pulled for RMA'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const CliResult empty =
      compare(kOneGpu + "bench-logical8.json " + without_gpu7(dir) + " --allow-missing ''");
  EXPECT_EQ(empty.exit_code, 2) << "an empty reason is no reason\n" << empty.out << empty.err;
  const CliResult line_break =
      compare(kOneGpu + "bench-logical8.json " + without_gpu7(dir) + " --allow-missing '\n'");
  EXPECT_EQ(line_break.exit_code, 2) << "a line break is no reason\n" << line_break.err;
  EXPECT_NE(line_break.err.find("say why the figures may be missing"), std::string::npos)
      << line_break.err;
  const CliResult two_lines = compare(kOneGpu + "bench-logical8.json " + without_gpu7(dir) +
                                      " --allow-missing 'gpu7 out\nPASS'");
  EXPECT_EQ(two_lines.exit_code, 2) << two_lines.err;
  EXPECT_NE(two_lines.err.find("the reason must be one line of text"), std::string::npos)
      << two_lines.err;
}

TEST(CompareGate, ARunCutShortFailsSayingSoBeforeTheTable) {
  const CliResult r = compare(kOneGpu + "bench-logical8.json " + kOneGpu + "bench-sigterm.json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::size_t caveat = r.out.find("the run is interrupted");
  ASSERT_NE(caveat, std::string::npos) << r.out;
  EXPECT_LT(caveat, r.out.find("figure ")) << "the caveat comes before the table\n" << r.out;
  EXPECT_TRUE(has(r.out, "--allow-caveat interrupted")) << r.out;
}

TEST(CompareGate, ASharedRunFailsWithTheReasonShared) {
  const CliResult r = compare(kShared + "bench-A.json " + kShared + "bench-B.json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "the run is shared")) << r.out;
  const CliResult allowed =
      compare(kShared + "bench-A.json " + kShared + "bench-B.json --allow-caveat shared");
  EXPECT_FALSE(has(last_line(allowed.out), "the run is shared")) << allowed.out;
}

}  // namespace
