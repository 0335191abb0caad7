// The worked example of docs/acceptance.md, kept as two results documents in
// acceptance/tests/worked-example/ so that `p2pcheck judge` runs on them in the docs: the
// synthetic healthy 8 x RTX PRO 6000 host of synthetic_run.hpp, and the same host with GPU5's
// slot trained at Gen5 x8 (half its lanes: host links and every pair through GPU5 at half
// speed). The files are what this test builds; P2P_UPDATE_GOLDEN=1 rewrites them for review.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <set>
#include <string>

#include "acceptance/judge.hpp"
#include "acceptance/tests/synthetic_run.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"

namespace p2p::accept {
namespace {

using testing::gpu;
using testing::healthy_eight_gpu_run;

// GPU5 at Gen5 x8: what it moves over its own link halves, staged copies through it too.
doc::BenchDocument gpu5_at_x8() {
  doc::BenchDocument d = healthy_eight_gpu_run();
  d.hostname = "rtxpro6000-gpu5-x8";
  for (auto& r : d.bandwidth)
    if (r.src == gpu(5) || r.dst == gpu(5)) {
      const double half = *r.median_gbps * 0.5;
      r.median_gbps = half;
      r.min_gbps = half * 0.99;
      r.max_gbps = half * 1.01;
      r.samples_gbps = {half * 0.99, half, half * 1.01};
      r.achieved_pct = half / *r.ceiling_gbps * 100;
    }
  return d;
}

std::string worked_example_path(const std::string& name) {
  return std::string(P2P_SOURCE_DIR) + "/acceptance/tests/worked-example/" + name;
}

void expect_kept(const doc::BenchDocument& d, const std::string& name) {
  const std::string text = json_text(nlohmann::json(d)) + "\n";
  const char* update = std::getenv("P2P_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    write_text_file_atomically(worked_example_path(name), text);
    std::cout << "updated " << worked_example_path(name) << "\n";
    return;
  }
  const auto expected = try_read_text_file(worked_example_path(name));
  ASSERT_TRUE(expected) << worked_example_path(name) << " is missing: run with P2P_UPDATE_GOLDEN=1";
  EXPECT_EQ(text, *expected) << "regenerate with P2P_UPDATE_GOLDEN=1 and review the change";
}

TEST(WorkedExample, TheKeptDocumentsAreTheSyntheticRuns) {
  expect_kept(healthy_eight_gpu_run(), "rtxpro6000-healthy.json");
  expect_kept(gpu5_at_x8(), "rtxpro6000-gpu5-x8.json");
}

TEST(WorkedExample, TheHealthyHostPassesAndTheDowntrainedSlotFailsOnItsGpuAlone) {
  const doc::RunVerdict healthy =
      judge_document(healthy_eight_gpu_run(), AcceptancePolicy{}, RunFacts{}, "bench");
  EXPECT_EQ(doc::exit_code(healthy), 0) << doc::format_verdict(healthy, "bench");
  const doc::RunVerdict sick =
      judge_document(gpu5_at_x8(), AcceptancePolicy{}, RunFacts{}, "bench");
  EXPECT_EQ(doc::exit_code(sick), 1);
  std::set<std::string> rules;
  for (const auto& c : sick.reasons()) {
    EXPECT_NE(c.subject.find(gpu(5)), std::string::npos) << c.rule << " " << c.subject;
    rules.insert(c.rule);
  }
  EXPECT_TRUE(rules.count("link_ceiling")) << doc::format_verdict(sick, "bench");
}

}  // namespace
}  // namespace p2p::accept
