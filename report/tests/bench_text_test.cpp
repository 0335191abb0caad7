// The terminal tables from a results document alone (no CUDA): the H200 run kept in results/
// (one H200 in a KVM guest, 2026-12-02) and that run with one figure failed and cut short.
#include "report/bench_text.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using namespace p2p::report;
namespace doc = p2p::doc;

doc::BenchDocument kept_h200_run() {
  std::ifstream in(std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json");
  return doc::bench_document_from_json(nlohmann::json::parse(in), "h200-bench.json");
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(TextTables, AKeptH200RunShowsItsGpuAndEveryFigureVerified) {
  const doc::BenchDocument d = kept_h200_run();
  ASSERT_EQ(d.gpus.size(), 1u);
  const std::string text = render_text_tables(d);
  EXPECT_EQ(text.rfind("p2pcheck bench on ", 0), 0u) << text.substr(0, 200);
  EXPECT_TRUE(contains(text, d.gpus[0].pci_bus_id + "  " + d.gpus[0].name)) << text;
  EXPECT_TRUE(
      contains(text, "summary: 229 figures verified, 0 FAILED verification, 0 waived, 0 errors"))
      << text;
  EXPECT_FALSE(contains(text, "INTERRUPTED")) << text;
  // One GPU: no peer-access table.
  EXPECT_FALSE(contains(text, "cudaDeviceCanAccessPeer")) << text;
}

TEST(TextTables, AFailedFigureAndAnInterruptionAreCounted) {
  doc::BenchDocument d = kept_h200_run();
  ASSERT_FALSE(d.bandwidth.empty());
  d.bandwidth[0].status = nlohmann::json("failed").get<decltype(d.bandwidth[0].status)>();
  d.bandwidth[0].bad_words = 3;
  d.interrupted = "SIGINT after 229 figures; the rest were not measured";
  const std::string text = render_text_tables(d);
  EXPECT_TRUE(contains(text, "summary: 228 figures verified, 1 FAILED verification")) << text;
  EXPECT_TRUE(contains(text, "  INTERRUPTED: SIGINT after 229 figures")) << text;
}

}  // namespace
