// What simpleP2P and nvbandwidth's waivers say about peer access, read as evidence, and judged:
// no peer access is a finding with its reason, never "no table found" or "no figure".
#include <gtest/gtest.h>

#include "acceptance/judge.hpp"
#include "import/import_document.hpp"
#include "import/simple_p2p.hpp"
#include "import/tests/test_support.hpp"

namespace p2p::import {
namespace {

using testing::fixture_text;

doc::BenchDocument imported(const char* name) {
  std::vector<ImportedFigures> parts;
  for (auto& s : import_paste(fixture_text(name), name, ImportOptions{}).sections)
    parts.push_back(std::move(s));
  return import_document(parts, ImportOptions{}, "2026-12-05T11:00:00Z");
}

doc::RunVerdict judged(const doc::BenchDocument& d) {
  return accept::judge_document(d, accept::AcceptancePolicy{}, accept::RunFacts{}, "judge");
}

const doc::Check* first(const doc::RunVerdict& v, const std::string& rule, doc::Outcome o) {
  for (const auto& c : v.checks)
    if (c.rule == rule && c.outcome == o) return &c;
  return nullptr;
}

TEST(SimpleP2p, ReadsPeerAccessTheRateAndThePassedTest) {
  const SimpleP2pOutput out =
      parse_simple_p2p(fixture_text("simple-p2p-2gpu-passed.txt"), "simple.txt");
  ASSERT_EQ(out.devices.size(), 2u);
  EXPECT_EQ(out.devices[1], "NVIDIA RTX A6000");
  EXPECT_EQ(out.access[0][1], 1);
  EXPECT_EQ(out.access[1][0], 1);
  ASSERT_TRUE(out.memcpy_gbps);
  EXPECT_DOUBLE_EQ(*out.memcpy_gbps, 25.62);
  EXPECT_EQ(out.buffer_mib, 64);
  EXPECT_EQ(out.passed, true);

  const doc::BenchDocument d = imported("simple-p2p-2gpu-passed.txt");
  ASSERT_EQ(d.imported.size(), 1u);
  EXPECT_EQ(d.imported[0].tool, "simpleP2P");
  ASSERT_EQ(d.bandwidth.size(), 1u);
  EXPECT_EQ(d.bandwidth[0].case_name, "ce_unidir_write");
  EXPECT_EQ(d.bandwidth[0].bytes, 64ull << 20);
  EXPECT_EQ(d.bandwidth[0].p2p, true);
  EXPECT_EQ(d.p2p_access, (std::vector<std::vector<bool>>{{false, true}, {true, false}}));
  const doc::RunVerdict v = judged(d);
  EXPECT_TRUE(doc::passes(v.outcome)) << doc::format_verdict(v, "judge");
  // 25.6 GB/s of an A6000's PCIe gen4 x16, held to the model's link (no topology here).
  const doc::Check* c = first(v, "link_ceiling", doc::Outcome::kPass);
  ASSERT_NE(c, nullptr) << doc::format_verdict(v, "judge");
  EXPECT_EQ(c->basis, "model");
}

TEST(SimpleP2p, DataThatDidNotVerifyFailsTheRun) {
  const doc::BenchDocument d = imported("simple-p2p-2gpu-verification-errors.txt");
  ASSERT_EQ(d.bandwidth.size(), 1u);
  EXPECT_EQ(d.bandwidth[0].status, doc::FigureStatus::kFailed);
  EXPECT_EQ(d.bandwidth[0].bad_words, 3u);
  const doc::RunVerdict v = judged(d);
  EXPECT_EQ(v.outcome, doc::Outcome::kFail);
  EXPECT_NE(first(v, "verification", doc::Outcome::kFail), nullptr)
      << doc::format_verdict(v, "judge");
}

TEST(SimpleP2p, AWaivedSampleIsEvidenceThatP2pIsUnavailable) {
  const doc::BenchDocument d = imported("simple-p2p-2gpu-waived.txt");
  EXPECT_TRUE(d.bandwidth.empty());
  EXPECT_EQ(d.p2p_access, (std::vector<std::vector<bool>>{{false, false}, {false, false}}));
  const doc::RunVerdict v = judged(d);
  EXPECT_EQ(v.outcome, doc::Outcome::kFail);
  const doc::Check* c = first(v, "p2p_available", doc::Outcome::kFail);
  ASSERT_NE(c, nullptr) << doc::format_verdict(v, "judge");
  EXPECT_NE(c->message.find("GeForce RTX 5090"), std::string::npos) << c->message;
}

TEST(SimpleP2p, TextWithoutItsLinesIsRefusedByName) {
  try {
    parse_simple_p2p("[./simpleP2P] - Starting...\nChecking for multiple GPUs...\n", "cut.txt");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cut.txt: not simpleP2P output: no \"> Peer access from\" line, cudaMemcpyPeer rate "
              "or waiver");
  }
}

TEST(NvbandwidthWaiver, WaivedDeviceToDeviceTestsMeanNoPairHasPeerAccess) {
  const doc::BenchDocument d = imported("nvbandwidth-v0.4-waived-d2d-only.txt");
  ASSERT_EQ(d.gpus.size(), 2u);
  EXPECT_EQ(d.p2p_access, (std::vector<std::vector<bool>>{{false, false}, {false, false}}));
  const doc::RunVerdict v = judged(d);
  EXPECT_NE(first(v, "p2p_available", doc::Outcome::kFail), nullptr)
      << doc::format_verdict(v, "judge");
}

TEST(NvbandwidthWaiver, AWaivingLineAloneIsReadNotRefused) {
  const doc::BenchDocument d = imported("nvbandwidth-waiving-line-only.txt");
  ASSERT_EQ(d.bandwidth.size(), 1u);
  EXPECT_EQ(d.bandwidth[0].status, doc::FigureStatus::kWaived);
  EXPECT_EQ(d.bandwidth[0].case_name, "ce_unidir_read");
  const doc::RunVerdict v = judged(d);
  const doc::Check* c = first(v, "p2p_available", doc::Outcome::kFail);
  ASSERT_NE(c, nullptr) << doc::format_verdict(v, "judge");
  EXPECT_NE(c->message.find("P2P unavailable: nvbandwidth waived device_to_device_memcpy_read_ce"),
            std::string::npos);
}

// simpleP2P's rate, negative: refused naming it, not dropped while the rest reads as a pass.
TEST(SimpleP2p, ANegativeRateIsRefused) {
  std::string text = testing::fixture_text("simple-p2p-2gpu-passed.txt");
  const auto at = text.find(": 25.62GB/s");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 11, ": -25.62GB/s");
  const std::string e = testing::input_error_of([&] { parse_simple_p2p(text, "p.txt"); });
  EXPECT_NE(e.find("p.txt: not simpleP2P output: the cudaMemcpyPeer rate '-25.62' is no bandwidth"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace p2p::import
