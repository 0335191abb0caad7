// import: files told apart by content, one results document, and compare against p2pcheck's own
// runs on the same H200 matching figures by meaning.
#include "import/import_document.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/testing/windows_file.hpp"
#include "import/tests/test_support.hpp"
#include "report/compare.hpp"
#include "topology/nvidia_smi_topo.hpp"
#include "topology/snapshot_json.hpp"

namespace p2p::import {
namespace {

using testing::fixture_text;
using testing::input_error_of;

doc::BenchDocument imported(std::initializer_list<const char*> names) {
  std::vector<ImportedFigures> parts;
  for (const char* n : names)
    for (auto& s : import_paste(fixture_text(n), n, ImportOptions{}).sections)
      parts.push_back(std::move(s));
  return import_document(parts, ImportOptions{}, "2026-12-02T11:00:00Z");
}

doc::BenchDocument results_document(const std::string& name) {
  const std::string path = std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/" + name;
  return doc::bench_document_from_json(read_json_file(path), path);
}

const report::FigureChange* change(const report::Comparison& c, const std::string& key) {
  for (const auto& f : c.figures)
    if (f.key == key) return &f;
  return nullptr;
}

// The tool of one table told by content.
std::string tool_of(const std::string& name) {
  const auto p = import_paste(fixture_text(name), name, ImportOptions{});
  return p.sections.size() == 1 ? p.sections[0].file.tool
                                : "(sections: " + std::to_string(p.sections.size()) + ")";
}

TEST(ImportDocument, FormatsAreToldByContent) {
  EXPECT_EQ(tool_of("nvbandwidth-v0.8-h200.json"), "nvbandwidth");
  EXPECT_EQ(tool_of("nccl-tests-2.19.6-h200-all_reduce.json"), "nccl-tests");
  EXPECT_EQ(tool_of("p2p-bandwidth-latency-rtx4090-older.txt"), "p2pBandwidthLatencyTest");
  // A topo -m matrix is a table too: it gives the document its topology.
  EXPECT_EQ(tool_of("h200-topo-m.txt"), "nvidia-smi");
  EXPECT_EQ(input_error_of([] {
              import_paste("hello\n", "hi.txt", ImportOptions{});
            }).rfind("hi.txt: no table found: looked for an nccl-tests table", 0),
            0u);
}

TEST(ImportDocument, RoundTripsAsAResultsDocumentOfVersion3) {
  const auto doc = imported({"nvbandwidth-v0.8-h200.txt", "nccl-tests-2.19.6-h200-all_reduce.txt"});
  EXPECT_EQ(doc.written_by, "import");
  ASSERT_EQ(doc.imported.size(), 2u);
  EXPECT_EQ(doc.hostname, "vm");
  EXPECT_EQ(doc.nvidia_driver_version, "580.159.04");
  const nlohmann::json j = doc;
  EXPECT_EQ(j.at("version"), doc::BenchDocument::kVersion);
  const auto back = doc::bench_document_from_json(j, "round trip");
  EXPECT_EQ(back.bandwidth.size(), doc.bandwidth.size());
  ASSERT_TRUE(back.bandwidth.front().source.has_value());
  EXPECT_EQ(back.bandwidth.front().source->figure, "host_to_device_memcpy_ce");
  EXPECT_EQ(back.imported.at(1).tool, "nccl-tests");
  EXPECT_TRUE(back.nccl.has_value());
  // A document p2pcheck measured has neither key.
  const nlohmann::json own = results_document("h200-bench.json");
  EXPECT_FALSE(own.contains("imported"));
  EXPECT_FALSE(own.at("bandwidth").at(0).contains("source"));
}

TEST(ImportDocument, NvbandwidthComparesWithP2pcheckBenchByMeaning) {
  const auto nvbw = imported({"nvbandwidth-v0.8-h200.txt"});
  const auto own = results_document("h200-bench.json");
  const auto c = report::compare_runs(nvbw, own, report::CompareOptions{});
  const auto* h2d = change(c, "h2d_ce host->gpu0 512MiB");
  ASSERT_NE(h2d, nullptr);
  ASSERT_TRUE(h2d->baseline && h2d->run);
  EXPECT_EQ(h2d->baseline_source, "nvbandwidth v0.8 host_to_device_memcpy_ce");
  EXPECT_EQ(h2d->run_source, "");
  const auto* lat = change(c, "latency_host gpu0->host");
  ASSERT_NE(lat, nullptr);
  EXPECT_TRUE(lat->baseline && lat->run);
  const std::string lines = report::imported_lines(nvbw, own);
  EXPECT_NE(
      lines.find("the baseline was imported from nvbandwidth v0.8 (nvbandwidth-v0.8-h200.txt)"),
      std::string::npos)
      << lines;
  EXPECT_NE(lines.find("host_to_device_memcpy_ce -> h2d_ce"), std::string::npos) << lines;
}

TEST(ImportDocument, NcclTestsComparesWithP2pcheckNccl) {
  const auto nt = imported({"nccl-tests-2.19.6-h200-all_reduce.txt"});
  const auto own = results_document("h200-nccl.json");
  const auto c = report::compare_runs(nt, own, report::CompareOptions{});
  const auto* ar = change(c, "nccl all_reduce float32 out_of_place 1r 512MiB algbw");
  ASSERT_NE(ar, nullptr);
  ASSERT_TRUE(ar->baseline && ar->run);
  EXPECT_NEAR(*ar->baseline, 2102.1, 1e-9);
  EXPECT_EQ(ar->baseline_source, "nccl-tests 2.19.6 all_reduce_perf");
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

using Access = std::vector<std::vector<bool>>;

// The document's p2p_access was left empty although the sample prints cudaDeviceCanAccessPeer
// per pair in its P2P Connectivity Matrix.
TEST(ImportedPeerAccess, FromTheSamplesConnectivityMatrix) {
  const auto doc = imported({"p2p-bandwidth-latency-4x-a100-nvlink-pairs.txt"});
  EXPECT_EQ(doc.p2p_access, (Access{{false, true, false, false},
                                    {true, false, false, false},
                                    {false, false, false, true},
                                    {false, false, true, false}}));
  const auto none = imported({"p2p-bandwidth-latency-2x-rtx5090-no-peer-access.txt"});
  EXPECT_EQ(none.p2p_access, (Access{{false, false}, {false, false}}));
  const auto back =
      doc::bench_document_from_json(nlohmann::json(doc), "imported.json");  // schema as is
  EXPECT_EQ(back.p2p_access, doc.p2p_access);
}

TEST(ImportedPeerAccess, FromAnNvidiaSmiTopoP2pCaptureWhereNothingElseSays) {
  const auto doc = imported({"rtxpro6000-vm-p2p-r.txt"});
  ASSERT_EQ(doc.imported.size(), 1u);
  EXPECT_EQ(doc.imported[0].tool, "nvidia-smi");
  EXPECT_EQ(doc.imported[0].figures, 0);
  ASSERT_EQ(doc.gpus.size(), 4u);
  EXPECT_EQ(doc.p2p_access[0], (std::vector<bool>{false, true, true, true}));
  const auto gns = imported({"topo-2x-rtx5090-phb-and-p2p-rw-gns.txt"});
  EXPECT_EQ(gns.p2p_access, (Access{{false, false}, {false, false}}));
  // With the sample's own answer in the same import, the sample's is kept.
  const auto both = imported(
      {"topo-2x-rtx5090-phb-and-p2p-rw-gns.txt", "p2p-bandwidth-latency-2gpu-p2p-read.txt"});
  EXPECT_EQ(both.p2p_access, (Access{{false, true}, {true, false}}));
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

using p2p::testing::as_windows_file;

// What each reader makes of a text: its JSON, or its one-line error.
std::string import_outcome(const std::string& text, const std::string& name) {
  ImportOptions o;
  o.collective = "all_reduce";  // for the outputs that name none
  try {
    return nlohmann::json(
               import_document(import_paste(text, name, o).sections, o, "2026-12-02T11:00:00Z"))
        .dump();
  } catch (const InputError& e) {
    return e.what();
  }
}

std::string topo_outcome(const std::string& text, const std::string& name) {
  try {
    nlohmann::json j = topo::snapshot_from_nvidia_smi_topo(text, name);
    for (const auto& s : topo::p2p_status_from_nvidia_smi(text, name))
      j["p2p"].push_back(nlohmann::json{{"capability", s.capability}, {"cells", s.cells}});
    j["looks_like"] = {topo::looks_like_nvidia_smi_topo(text),
                       topo::looks_like_nvidia_smi_p2p(text)};
    return j.dump();
  } catch (const InputError& e) {
    return e.what();
  }
}

// Every fixture, converted here: each reader must read it as it reads the original.
TEST(WindowsLineEndsAndBom, EveryImportFixtureReadsAsTheOriginal) {
  const std::string dir = std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures";
  int files = 0;
  for (const char* folder : {"", "pastes/"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir + "/" + folder)) {
      const std::string name = folder + entry.path().filename().string();
      if (!entry.is_regular_file() || name.find("README.md") != std::string::npos ||
          name.find("EXPECTED") != std::string::npos || name == "policy-require-p2p.json")
        continue;
      const std::string text = fixture_text(name);
      const std::string windows = as_windows_file(text);
      EXPECT_EQ(import_outcome(windows, name), import_outcome(text, name)) << name;
      EXPECT_EQ(topo_outcome(windows, name), topo_outcome(text, name)) << name;
      ++files;
    }
  }
  EXPECT_GT(files, 70);
}

}  // namespace
}  // namespace p2p::import
