// The normaliser on real pastes (import/tests/fixtures/pastes/, nccl/tests/fixtures/): each kind
// of wrapper removed where people and launchers put it, said once, and the tool's text left as
// it was, row numbers of a matrix included.
#include "import/paste_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/file_io.hpp"
#include "common/testing/windows_file.hpp"

namespace p2p::import {
namespace {

std::string paste(const std::string& name) {
  return read_text_file(std::string(P2P_SOURCE_DIR) + "/import/tests/fixtures/pastes/" + name);
}
std::string fixture(const std::string& path) {
  return read_text_file(std::string(P2P_SOURCE_DIR) + "/" + path);
}

std::vector<std::string> texts(const NormalisedPaste& p) {
  std::vector<std::string> out;
  for (const auto& l : p.lines) out.push_back(l.text);
  return out;
}

const PasteLine* line_with(const NormalisedPaste& p, const std::string& part) {
  for (const auto& l : p.lines)
    if (l.text.find(part) != std::string::npos) return &l;
  return nullptr;
}

TEST(PasteText, QuoteMarkersBeforeTheRunningLinesGoAndTheLinesKeepTheirNumbers) {
  const auto p = normalise_paste(paste("nvbandwidth-24-h100-sm-quoted-no-banner.txt"));
  EXPECT_EQ(p.stripped, (std::vector<std::string>{"quote markers (`> `) on 2 lines"}));
  const auto* running = line_with(p, "Running device_to_host_memcpy_sm.");
  ASSERT_NE(running, nullptr);
  EXPECT_EQ(running->text, "Running device_to_host_memcpy_sm.");
  EXPECT_EQ(running->line, 9);
  EXPECT_EQ(p.lines.size(), 15u);
}

TEST(PasteText, AnEditorsLineNumbersGoButAMatrixKeepsItsRowNumbers) {
  const auto p =
      normalise_paste(paste("p2p-sample-cuda-samples-230-editor-line-numbers-latency.txt"));
  EXPECT_EQ(p.stripped, (std::vector<std::string>{"Markdown fences on 2 lines",
                                                  "an editor's line numbers on 24 lines"}));
  ASSERT_NE(line_with(p, "P2P=Disabled Latency Matrix (us)"), nullptr);
  EXPECT_EQ(line_with(p, "P2P=Disabled Latency Matrix (us)")->text,
            "P2P=Disabled Latency Matrix (us)");
  EXPECT_EQ(line_with(p, "11.09")->text, "     1  11.09   2.10  19.16  18.72");
  EXPECT_EQ(line_with(p, "11.09")->line, 7);
  // Line "  7" held nothing but its number.
  EXPECT_EQ(p.lines[9].text, "");

  // Rows 0..5 under a "D\D" header count up too: they are the matrix's, not an editor's.
  const std::string matrices = paste("p2p-sample-nccl-814-6gpu-matrices-no-device-list.txt");
  const auto q = normalise_paste(matrices);
  EXPECT_EQ(q.stripped, (std::vector<std::string>{"Markdown fences on 1 line"}));
  EXPECT_EQ(q.lines[4].text, "     0 911.08  20.10  22.16  22.14  22.33  22.37");
}

TEST(PasteText, AFenceOpenedOnTheToolsFirstLineKeepsThatLine) {
  const auto p = normalise_paste(paste("none-nccl-1127-p2p-sample-cut-in-peer-list.txt"));
  ASSERT_NE(line_with(p, "[P2P (Peer-to-Peer)"), nullptr);
  EXPECT_EQ(line_with(p, "[P2P (Peer-to-Peer)")->text,
            "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]");
  const auto q = normalise_paste(paste("nvbandwidth-42-a100-two-fenced-runs.txt"));
  EXPECT_EQ(q.stripped, (std::vector<std::string>{"Markdown fences on 3 lines"}));
  EXPECT_EQ(q.lines[10].text, "");  // "``` shell"
}

TEST(PasteText, MpirunTagsGoFromEveryRanksLines) {
  const auto p =
      normalise_paste(fixture("nccl/tests/fixtures/real_nccl300_mpirun_prefix_version.log"));
  ASSERT_FALSE(p.stripped.empty());
  EXPECT_EQ(p.stripped.front().rfind("mpirun rank tags (`[1,0]<stdout>:`) on ", 0), 0u);
  EXPECT_EQ(p.lines[4].text, "NCCL version 2.5.6+cuda10.2");
  EXPECT_EQ(p.lines[0].text.rfind("5873af64cf59:10158:10560 [0] NCCL INFO Bootstrap", 0), 0u);
}

TEST(PasteText, TimestampsGoBeforeALineAndOnALineOfTheirOwn) {
  const auto logging =
      normalise_paste(fixture("nccl/tests/fixtures/real_easydistill4_python_logging_prefix.log"));
  ASSERT_EQ(logging.stripped.size(), 1u);
  EXPECT_EQ(logging.stripped[0].rfind("timestamps on ", 0), 0u);
  EXPECT_EQ(logging.lines[0].text.rfind("g340-cd51-4900-b72a-d104-a9bf-df48:4181:4857 [0] NCCL", 0),
            0u);
  const auto own = normalise_paste(
      fixture("nccl/tests/fixtures/real_aws_ofi_nccl715_timestamp_lines_cumem.log"));
  EXPECT_EQ(own.lines[0].text, "");
  EXPECT_EQ(own.lines[1].text.rfind("algo-1:18062:18131 [5] NCCL INFO", 0), 0u);
}

TEST(PasteText, WindowsLineEndsAByteOrderMarkAndEscapesAreSaid) {
  const std::string text = paste("topo-nccl-1617-4x-h100-nv6-nics.txt");
  const auto plain = normalise_paste(text);
  const auto windows = normalise_paste(p2p::testing::as_windows_file(text));
  EXPECT_EQ(texts(windows), texts(plain));
  EXPECT_EQ(windows.stripped[0], "a byte order mark");
  EXPECT_EQ(windows.stripped[1], "Windows line ends (CRLF) on 21 lines");
  const auto h200 = normalise_paste(fixture("import/tests/fixtures/h200-topo-m.txt"));
  EXPECT_EQ(h200.stripped, (std::vector<std::string>{"terminal escapes on 1 line"}));
  EXPECT_EQ(h200.lines[0].text, "\tGPU0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID");
}

// What a launcher puts before most lines, added here to a real paste: the paste comes back.
TEST(PasteText, SrunLabelsAndMpichRankTagsGoWhenMostLinesCarryThem) {
  const std::string text = paste("nccl-1411-table-under-env-line-cut-row.txt");
  const auto plain = normalise_paste(text);
  for (const char* prefix : {"0: ", "[0] "}) {
    std::string labelled;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = text.find('\n', at);
      labelled += prefix + text.substr(at, end - at + 1);
      at = end + 1;
    }
    const auto p = normalise_paste(labelled);
    EXPECT_EQ(texts(p), texts(plain)) << prefix;
    EXPECT_NE(p.stripped.back().find(" on 14 lines"), std::string::npos) << p.stripped.back();
  }
  // A few such lines among many are the tool's own text.
  const auto few = normalise_paste("0: one\nplain\nplain\nplain\n1: two\nplain\n");
  EXPECT_TRUE(few.stripped.empty());
}

// A real topo capture wrapped here at 80 columns, as a terminal copy does: rejoined.
TEST(PasteText, LinesATerminalWrappedAtItsWidthAreRejoined) {
  const std::string text = paste("topo-vllm-29944-8x-h100-cut-after-six-rows.txt");
  std::string wrapped;
  int breaks = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    std::string line = text.substr(at, end - at);
    for (; line.size() > 80; ++breaks) {
      wrapped += line.substr(0, 80) + "\n";
      line.erase(0, 80);
    }
    wrapped += line + "\n";
    at = end + 1;
  }
  const auto p = normalise_paste(wrapped);
  EXPECT_EQ(texts(p), texts(normalise_paste(text)));
  EXPECT_EQ(p.stripped.front(), "lines a terminal wrapped, rejoined: " + std::to_string(breaks));
  // Rows of one width, one after another, are a table, not wrapped lines.
  const auto rows = normalise_paste(paste("nccl-1411-table-under-env-line-cut-row.txt"));
  EXPECT_EQ(rows.stripped, (std::vector<std::string>{"Markdown fences on 1 line"}));
}

TEST(PasteText, WholeOutputsAreLeftAsTheyAre) {
  const std::string text = fixture("import/tests/fixtures/nvbandwidth-v0.8-h200.txt");
  const auto p = normalise_paste(text);
  EXPECT_TRUE(p.stripped.empty());
  EXPECT_EQ(paste_text(p, 0, p.lines.size()), text);
  EXPECT_TRUE(normalise_paste("").lines.empty());
}

}  // namespace
}  // namespace p2p::import
