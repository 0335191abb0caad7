// nvbandwidth: text of v0.4 and v0.8, -j JSON of v0.6 and v0.8, figures named by meaning.
#include "import/nvbandwidth.hpp"

#include <gtest/gtest.h>

#include "import/tests/test_support.hpp"

namespace p2p::import {
namespace {

using testing::find_figure;
using testing::fixture_text;
using testing::input_error_of;

TEST(Nvbandwidth, RealH200TextEveryMatrixSumAndVersion) {
  const auto out = parse_nvbandwidth(fixture_text("nvbandwidth-v0.8-h200.txt"), "h200.txt");
  EXPECT_EQ(out.format, "text");
  EXPECT_EQ(out.version, "v0.8");
  EXPECT_EQ(out.driver_version, "580.159.04");
  EXPECT_EQ(out.cuda_runtime_version.value_or(0), 13000);
  EXPECT_EQ(out.hostname, "vm");
  ASSERT_EQ(out.devices.size(), 1u);
  ASSERT_EQ(out.matrices.size(), 8u);
  EXPECT_EQ(out.matrices[0].key, "host_to_device_memcpy_ce");
  EXPECT_DOUBLE_EQ(out.matrices[0].cells.at(0).at(0).value(), 55.44);
  EXPECT_DOUBLE_EQ(out.matrices[0].sum.value(), 55.44);
  EXPECT_EQ(out.matrices[7].unit, "ns");
}

TEST(Nvbandwidth, RealH200FiguresCarryP2pcheckNamesAndTheirSource) {
  const auto f = nvbandwidth_figures(
      parse_nvbandwidth(fixture_text("nvbandwidth-v0.8-h200.txt"), "h200.txt"), "h200.txt");
  const auto* h2d = find_figure(f.bandwidth, "h2d_ce", "host", "gpu0");
  ASSERT_NE(h2d, nullptr);
  EXPECT_DOUBLE_EQ(h2d->median_gbps.value(), 55.44);
  EXPECT_EQ(h2d->bytes, 512ull << 20);  // v0.8's default, noted
  ASSERT_TRUE(h2d->source.has_value());
  EXPECT_EQ(h2d->source->tool, "nvbandwidth");
  EXPECT_EQ(h2d->source->version, "v0.8");
  EXPECT_EQ(h2d->source->figure, "host_to_device_memcpy_ce");
  EXPECT_EQ(h2d->source->unit, "GB/s");
  EXPECT_NE(find_figure(f.bandwidth, "h2d_d2h_ce", "gpu0", "host", "dir"), nullptr);
  EXPECT_NE(find_figure(f.bandwidth, "device_local_ce", "gpu0", "gpu0"), nullptr);
  const auto* lat = find_figure(f.latency, "latency_host", "gpu0", "host");
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->median_ns.value(), 1176.61);
  EXPECT_EQ(f.file.figures, 8);
  EXPECT_FALSE(f.file.notes.empty());  // the assumed buffer size
}

TEST(Nvbandwidth, JsonOfV08ReadsStringValuesAndWaivedTestcases) {
  const auto out = parse_nvbandwidth(fixture_text("nvbandwidth-v0.8-h200.json"), "h200.json");
  EXPECT_EQ(out.format, "json");
  EXPECT_EQ(out.version, "v0.8");
  EXPECT_EQ(out.hostname, "vm");
  ASSERT_EQ(out.matrices.size(), 8u);
  ASSERT_EQ(out.not_measured.size(), 1u);
  EXPECT_EQ(out.not_measured[0].second, "Waived");
  const auto f = nvbandwidth_figures(out, "h200.json", 512ull << 20);
  EXPECT_TRUE(f.file.notes.size() == 1u);  // the waived testcase; no assumed size
}

TEST(Nvbandwidth, DeviceToDeviceReadWriteBidirAndLatencyOnFourGpus) {
  const auto out =
      parse_nvbandwidth(fixture_text("nvbandwidth-v0.8-4gpu-pcie-switches.txt"), "4gpu.txt");
  ASSERT_EQ(out.matrices.size(), 7u);  // read, write, 3 bidirectional, latency, all-to-host
  EXPECT_FALSE(out.matrices[0].cells[0][2].has_value());  // N/A: no peer access across switches
  const auto f = nvbandwidth_figures(out, "4gpu.txt");
  // read: the row GPU reads from the column GPU: data flows column -> row
  const auto* read = find_figure(f.bandwidth, "ce_unidir_read", "gpu1", "gpu0");
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->median_gbps.value(), 53.9);
  EXPECT_EQ(find_figure(f.bandwidth, "ce_unidir_read", "gpu2", "gpu0"), nullptr);  // N/A left out
  EXPECT_NE(find_figure(f.bandwidth, "ce_unidir_write", "gpu0", "gpu1"), nullptr);
  EXPECT_NE(find_figure(f.bandwidth, "ce_bidir", "gpu0", "gpu1", "dir"), nullptr);
  EXPECT_NE(find_figure(f.bandwidth, "ce_bidir", "gpu0", "gpu1", "sum"), nullptr);
  EXPECT_EQ(find_figure(f.bandwidth, "ce_bidir", "gpu1", "gpu0", "sum"),
            nullptr);  // one total per pair
  EXPECT_NE(find_figure(f.bandwidth, "device_to_device_bidirectional_memcpy_write_ce_write2",
                        "gpu0", "gpu1"),
            nullptr);
  EXPECT_NE(find_figure(f.latency, "latency_peer", "gpu2", "gpu3"), nullptr);
  EXPECT_NE(find_figure(f.bandwidth, "all_to_host_memcpy_ce", "gpu3", "host"),
            nullptr);  // kept under its own key
}

TEST(Nvbandwidth, V04TextWithWaivingLinesAnd64MiBDefault) {
  const auto out = parse_nvbandwidth(fixture_text("nvbandwidth-v0.4-2gpu.txt"), "v04.txt");
  EXPECT_EQ(out.version, "v0.4");
  ASSERT_EQ(out.not_measured.size(), 1u);
  EXPECT_EQ(out.not_measured[0].first, "device_to_device_memcpy_read_sm");
  const auto f = nvbandwidth_figures(out, "v04.txt");
  const auto* w = find_figure(f.bandwidth, "ce_unidir_write", "gpu1", "gpu0");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->bytes, 64ull << 20);
}

TEST(Nvbandwidth, V06JsonSplitsTheThreeBidirectionalMatrices) {
  const auto out = parse_nvbandwidth(fixture_text("nvbandwidth-v0.6-bidir.json"), "v06.json");
  ASSERT_EQ(out.matrices.size(), 3u);
  EXPECT_EQ(out.matrices[0].key, "device_to_device_bidirectional_memcpy_write_ce_write1");
  EXPECT_EQ(out.matrices[2].key, "device_to_device_bidirectional_memcpy_write_ce_total");
  EXPECT_DOUBLE_EQ(out.matrices[2].cells[0][1].value(), 539.9);
  EXPECT_EQ(out.hostname, "dgx-a");
}

TEST(Nvbandwidth, ACutOutputKeepsItsWholeRowsAndSaysWhereItIsCut) {
  const auto out = parse_nvbandwidth(fixture_text("bad-nvbandwidth-cut.txt"), "cut.txt");
  const auto& cut = out.matrices.back();
  EXPECT_EQ(cut.testcase, "device_to_device_memcpy_read_ce");
  ASSERT_EQ(cut.cells.size(), 1u);  // the one row before the cut
  EXPECT_DOUBLE_EQ(cut.cells[0][1].value(), 53.90);
  EXPECT_FALSE(cut.sum.has_value());
  ASSERT_FALSE(out.notes.empty());
  EXPECT_EQ(out.notes.back(),
            "device_to_device_memcpy_read_ce: cut after 1 of 4 rows: the rest left out");
  EXPECT_NE(input_error_of([] {
              parse_nvbandwidth("hello\n", "x.txt");
            }).find("no result matrix, SUM line or \"nvbandwidth Version:\" line"),
            std::string::npos);
  EXPECT_NE(input_error_of([] {
              parse_nvbandwidth("{\"a\": 1}", "x.json");
            }).find("without an \"nvbandwidth\" object"),
            std::string::npos);
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

TEST(Nvbandwidth, JsonValuesOfTheWrongTypeAreBadInputNotACrash) {
  const std::string e = testing::input_error_of(
      [] { parse_nvbandwidth(R"({"nvbandwidth": {"testcases": [{"name": 7}]}})", "n.json"); });
  EXPECT_EQ(e.rfind("n.json: not nvbandwidth output: ", 0), 0u) << e;
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

// A runtime version of 1e300 was cast to int (undefined behaviour); it is now simply unknown.
TEST(Nvbandwidth, AnImplausibleRuntimeVersionIsUnknownNotACast) {
  std::string text = testing::fixture_text("nvbandwidth-v0.8-h200.txt");
  const auto at = text.find("CUDA Runtime Version: 13000");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 27, "CUDA Runtime Version: 1e300");
  EXPECT_FALSE(parse_nvbandwidth(text, "nv.txt").cuda_runtime_version.has_value());
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

// A figure is a decimal number and never negative; "0x10" is not 16 GB/s.
TEST(Nvbandwidth, ANegativeOrHexadecimalCellIsRefusedNamingLineAndColumn) {
  const std::string text = testing::fixture_text("nvbandwidth-v0.8-h200.txt");
  const auto at = text.find(" 0     55.44");
  ASSERT_NE(at, std::string::npos);
  std::string negative = text, hex = text;
  negative.replace(at, 12, " 0    -55.44");
  hex.replace(at, 12, " 0      0x10");
  const std::string e = testing::input_error_of([&] { parse_nvbandwidth(negative, "nv.txt"); });
  EXPECT_EQ(e.find("nv.txt: "), 0u) << e;
  EXPECT_NE(e.find("line 14, column 2 of host_to_device_memcpy_ce: \"-55.44\" is negative"),
            std::string::npos)
      << e;
  const std::string h = testing::input_error_of([&] { parse_nvbandwidth(hex, "nv.txt"); });
  EXPECT_NE(
      h.find("line 14, column 2 of host_to_device_memcpy_ce: \"0x10\" is not a decimal number"),
      std::string::npos)
      << h;
}

// A SUM line, alone or after its matrix, whose figure is negative or no number: refused by name,
// not dropped (a paste of SUM lines alone would otherwise lose its figure without a word).
TEST(Nvbandwidth, ANegativeOrNonNumericSumIsRefused) {
  for (const char* value : {"-55.90", "abc"}) {
    const std::string text =
        std::string("nvbandwidth Version: v0.8\nSUM device_to_device_memcpy_write_ce ") + value +
        "\n";
    const std::string e = testing::input_error_of([&] { parse_nvbandwidth(text, "sum.txt"); });
    EXPECT_NE(e.find("sum.txt: not nvbandwidth output: the SUM line of "
                     "device_to_device_memcpy_write_ce holds '" +
                     std::string(value) + "', which is no bandwidth"),
              std::string::npos)
        << e;
  }
}

}  // namespace
}  // namespace p2p::import
