// nccl-tests: the 2.19 text table and -J JSON, the older layout without version or collective
// lines, and cut rows.
#include "import/nccl_tests.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <sstream>

#include "import/nccl_tests_command_line.hpp"
#include "import/tests/test_support.hpp"

namespace p2p::import {
namespace {

using testing::fixture_text;
using testing::input_error_of;

TEST(NcclTests, Text219EveryRowBothPlacementsAndTheSummary) {
  const auto out =
      parse_nccl_tests(fixture_text("nccl-tests-2.19.6-h200-all_reduce.txt"), "nt.txt");
  EXPECT_EQ(out.version, "2.19.6");
  EXPECT_EQ(out.nccl_library_code.value_or(0), 22803);
  ASSERT_EQ(out.runs.size(), 1u);
  const auto& run = out.runs[0];
  EXPECT_EQ(run.collective, "all_reduce");
  EXPECT_EQ(run.iterations, 100);
  EXPECT_EQ(run.warmup_iterations, 10);
  EXPECT_EQ(run.hostname, "vm");
  ASSERT_EQ(run.devices.size(), 1u);
  ASSERT_EQ(run.rows.size(), 10u);  // 5 sizes, out-of-place and in-place
  EXPECT_FALSE(run.rows[0].in_place);
  EXPECT_TRUE(run.rows[1].in_place);
  EXPECT_EQ(run.rows[6].size_bytes, 536870912u);
  EXPECT_DOUBLE_EQ(run.rows[6].time_us.value(), 255.4);
  EXPECT_DOUBLE_EQ(run.rows[7].algbw_gbps.value(), 1e6);  // "1e+06": nccl-tests' narrow column
  EXPECT_DOUBLE_EQ(run.rows[6].wrong.value(), 0);
  EXPECT_DOUBLE_EQ(run.avg_busbw_gbps.value(), 0);
  EXPECT_EQ(run.out_of_bounds.value_or(-1), 0);
}

TEST(NcclTests, FiguresAreNcclRecordsWithOneRank) {
  const auto f = nccl_tests_figures(
      parse_nccl_tests(fixture_text("nccl-tests-2.19.6-h200-all_reduce.txt"), "nt.txt"), "nt.txt");
  ASSERT_TRUE(f.nccl.has_value());
  EXPECT_EQ(f.file.tool, "nccl-tests");
  EXPECT_EQ(f.file.version, "2.19.6");
  EXPECT_EQ(f.nccl->environment.nccl_library_version, "2.28.3");
  ASSERT_EQ(f.nccl->results.size(), 10u);
  const auto& r = f.nccl->results[6];
  EXPECT_EQ(r.collective, "all_reduce");
  EXPECT_EQ(r.dtype, "float32");
  EXPECT_FALSE(r.in_place);
  EXPECT_EQ(r.nranks, 1);
  EXPECT_NEAR(r.algbw_gbps.value(), 2102.1, 1e-9);
  EXPECT_EQ(r.wrong_elements.value_or(99), 0u);
  EXPECT_STREQ(doc::to_string(r.status), "ok");
  EXPECT_EQ(f.nccl->environment.devices.at(0).name, "NVIDIA H200");
}

TEST(NcclTests, JsonOfTheSameRun) {
  const auto out =
      parse_nccl_tests(fixture_text("nccl-tests-2.19.6-h200-all_reduce.json"), "nt.json");
  EXPECT_EQ(out.format, "json");
  ASSERT_EQ(out.runs.size(), 1u);
  EXPECT_EQ(out.runs[0].collective, "all_reduce");  // from args[0]
  EXPECT_EQ(out.runs[0].rows.size(), 10u);
  EXPECT_EQ(out.runs[0].iterations, 100);
  EXPECT_DOUBLE_EQ(out.runs[0].rows[6].time_us.value(), 255.4);
  const auto f = nccl_tests_figures(out, "nt.json");
  EXPECT_EQ(f.nccl->results.size(), 10u);
}

TEST(NcclTests, OlderLayoutNeedsTheCollectiveNamedAndCountsRanksFromDeviceLines) {
  const std::string text = fixture_text("nccl-tests-older-8gpu-all_reduce.txt");
  // Without its collective the table is still read: as "unknown", and the note says so.
  const auto unnamed = nccl_tests_figures(parse_nccl_tests(text, "old.txt"), "old.txt");
  EXPECT_EQ(unnamed.nccl->results.front().collective, "unknown");
  EXPECT_NE(std::find_if(unnamed.file.notes.begin(), unnamed.file.notes.end(),
                         [](const std::string& n) {
                           return n.rfind("assumed: collective unknown", 0) == 0 &&
                                  n.find("give --collective") != std::string::npos;
                         }),
            unnamed.file.notes.end());
  const auto out = parse_nccl_tests(text, "old.txt", "all_reduce");
  EXPECT_EQ(out.version, "");
  ASSERT_EQ(out.runs.size(), 1u);
  EXPECT_EQ(out.runs[0].devices.size(), 8u);
  const auto f = nccl_tests_figures(out, "old.txt");
  EXPECT_EQ(f.nccl->results.front().nranks, 8);
  EXPECT_NEAR(f.nccl->results.front().busbw_gbps.value(), 42.35, 0.01);
}

TEST(NcclTests, CutRowIsOneLineNamingTheFileAndLine) {
  const std::string e = input_error_of(
      [] { parse_nccl_tests(fixture_text("bad-nccl-tests-mangled.txt"), "bad.txt"); });
  EXPECT_EQ(e.rfind("bad.txt: not nccl-tests output: line 13: a result row with", 0), 0u) << e;
}

TEST(NcclTests, OtherOutputIsRefused) {
  EXPECT_NE(input_error_of([] {
              parse_nccl_tests("hello\n", "x.txt");
            }).find("x.txt: not nccl-tests output: no result table"),
            std::string::npos);
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

TEST(NcclTests, JsonValuesOfTheWrongTypeAreBadInputNotACrash) {
  const std::string e = testing::input_error_of([] {
    parse_nccl_tests(R"({"nccl_version": 22803, "results": [{"size": "big"}]})", "t.json",
                     "all_reduce");
  });
  EXPECT_EQ(e.rfind("t.json: not nccl-tests output: ", 0), 0u) << e;
  // A version line cut short is not a crash either.
  EXPECT_NE(testing::input_error_of([] {
              parse_nccl_tests("# nccl-tests version\n", "v.txt");
            }).find("v.txt: not nccl-tests"),
            std::string::npos);
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

// Found by the nccl_tests fuzz target: a size of 1e400 (infinity) was cast to an unsigned
// integer, which is undefined behaviour. Sizes and counts are whole numbers or the row is bad.
TEST(NcclTests, SizesThatAreNotWholeNumbersAreBadRowsNotCasts) {
  std::string text = fixture_text("nccl-tests-2.19.6-h200-all_reduce.txt");
  const auto row = text.find("    67108864");  // the size of the first row
  ASSERT_NE(row, std::string::npos);
  for (const std::string bad : {"1e400", "-5", "2.5", "nan"}) {
    std::string t = text;
    t.replace(row, 12, bad);
    const std::string e = testing::input_error_of([&] { parse_nccl_tests(t, "nt.txt"); });
    EXPECT_NE(e.find("nt.txt: not nccl-tests output: line "), std::string::npos)
        << bad << ": " << e;
    EXPECT_NE(e.find("size and count must be whole numbers"), std::string::npos)
        << bad << ": " << e;
  }
  for (const std::string bad : {"1e300", "-1", "0.5"}) {
    const std::string json = R"({"nccl_version": 22803, "results": [{"size": )" + bad + "}]}";
    const std::string e =
        testing::input_error_of([&] { parse_nccl_tests(json, "t.json", "all_reduce"); });
    EXPECT_EQ(e.rfind("t.json: not nccl-tests output: `size`: expected an integer", 0), 0u)
        << bad << ": " << e;
  }
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

using testing::fixture_text;
using testing::input_error_of;

// nccl-tests before 2.13 printed per-test lead columns: all_gather had no redop and no root. The
// reader took the fourth field for redop, so every timing landed one column to the left.
TEST(NcclTestsHeader, AllGatherWithoutRedopTakesItsColumnsFromTheHeader) {
  const auto out =
      parse_nccl_tests(fixture_text("nccl-tests-2.x-2gpu-all_gather-no-redop.txt"), "ag.txt");
  ASSERT_EQ(out.runs.size(), 1u);
  const auto& run = out.runs[0];
  EXPECT_EQ(run.collective, "all_gather");  // from the pasted command line
  ASSERT_EQ(run.rows.size(), 26u);          // 13 sizes, out-of-place and in-place
  EXPECT_EQ(run.rows[0].redop, "");
  EXPECT_FALSE(run.rows[0].root.has_value());
  EXPECT_DOUBLE_EQ(run.rows[0].time_us.value(), 13.39);
  EXPECT_DOUBLE_EQ(run.rows[0].algbw_gbps.value(), 1.22);
  EXPECT_DOUBLE_EQ(run.rows[0].busbw_gbps.value(), 1.22);
  EXPECT_TRUE(run.rows[1].in_place);
  EXPECT_DOUBLE_EQ(run.rows[1].time_us.value(), 11.85);
  EXPECT_DOUBLE_EQ(run.rows[1].busbw_gbps.value(), 1.38);
  EXPECT_DOUBLE_EQ(run.rows.back().busbw_gbps.value(), 21.86);
  EXPECT_TRUE(run.wrong_is_error_magnitude);
  const auto f = nccl_tests_figures(out, "ag.txt");
  EXPECT_EQ(f.nccl->results.front().nranks, 2);
  EXPECT_EQ(f.nccl->results.front().dtype, "float32");
}

// The first releases: "bytes N type root" and, for broadcast, no in-place half at all.
TEST(NcclTestsHeader, FirstReleaseBroadcastHasOneTimingGroupAndARootColumn) {
  const std::string text =
      "# Using devices\n"
      "#   Rank  0 on     host device  0 [0x04] Tesla P100-SXM2-16GB\n"
      "#   Rank  1 on     host device  1 [0x05] Tesla P100-SXM2-16GB\n"
      "#                                              out-of-place\n"
      "#      bytes             N    type    root     time  algbw  busbw      res\n"
      "     1048576        262144   float       0    62.50  16.78  16.78    0e+00\n"
      "     2097152        524288   float       0   110.20  19.03  19.03    0e+00\n"
      "# Avg bus bandwidth    : 17.905\n";
  const auto out = parse_nccl_tests(text, "bc.txt", "broadcast");
  ASSERT_EQ(out.runs.size(), 1u);
  ASSERT_EQ(out.runs[0].rows.size(), 2u);
  EXPECT_FALSE(out.runs[0].rows[1].in_place);
  EXPECT_EQ(out.runs[0].rows[1].root, 0);
  EXPECT_DOUBLE_EQ(out.runs[0].rows[1].busbw_gbps.value(), 19.03);
  const auto f = nccl_tests_figures(out, "bc.txt");
  EXPECT_NE(std::find_if(f.file.notes.begin(), f.file.notes.end(),
                         [](const std::string& n) { return n.find("over 2 sizes") != n.npos; }),
            f.file.notes.end());
  EXPECT_EQ(f.file.notes.front(), "assumed: broadcast (--collective): the table does not name it");
}

TEST(NcclTestsHeader, AHeaderItCannotPlaceIsRefusedNamingTheLine) {
  std::string text = fixture_text("nccl-tests-2.19.6-h200-all_reduce.txt");
  const auto at = text.find("   redop    root");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 16, "   redop   chunk");
  const std::string e = input_error_of([&] { parse_nccl_tests(text, "h.txt"); });
  EXPECT_EQ(e,
            "h.txt: not nccl-tests output: line 9: a table header whose columns cannot be read: "
            "unknown column \"chunk\" before the timings");
  std::string no_busbw = fixture_text("nccl-tests-2.19.6-h200-all_reduce.txt");
  const auto busbw = no_busbw.find("busbw");
  no_busbw.replace(busbw, 5, "xxxxx");
  EXPECT_NE(input_error_of([&] {
              parse_nccl_tests(no_busbw, "h.txt");
            }).find("no \"algbw\" and \"busbw\" after \"time\""),
            std::string::npos);
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

// A figure is a decimal number and never negative: "-1945.2" or "0x10" (which strtod reads as
// 16) is refused with its file, line and column, not imported as a figure.
TEST(NcclTests, ANegativeOrHexadecimalFigureIsRefusedNamingLineAndColumn) {
  const std::string text = testing::fixture_text("nccl-tests-2.19.6-h200-all_reduce.txt");
  const auto at = text.find("  1945.2 ");
  ASSERT_NE(at, std::string::npos);
  std::string negative = text;
  negative.replace(at, 9, " -1945.2 ");
  EXPECT_EQ(testing::input_error_of([&] { parse_nccl_tests(negative, "nt.txt"); }),
            "nt.txt: not nccl-tests output: line 11, column 7 (algbw): \"-1945.2\" is negative: "
            "no bandwidth, time or count is");
  std::string hex = text;
  hex.replace(at, 9, "   0x10  ");
  EXPECT_EQ(testing::input_error_of([&] { parse_nccl_tests(hex, "nt.txt"); }),
            "nt.txt: not nccl-tests output: line 11, column 7 (algbw): \"0x10\" is not a decimal "
            "number");
}

// The -J JSON is held to the same rule: a negative time, bandwidth or count is refused, named.
TEST(NcclTests, ANegativeFigureInTheJsonIsRefusedNamingItsPlace) {
  nlohmann::json doc =
      nlohmann::json::parse(testing::fixture_text("nccl-tests-2.19.6-h200-all_reduce.json"));
  doc["results"][1]["in_place"]["bus_bw"] = -3.5;
  const std::string e =
      testing::input_error_of([&] { parse_nccl_tests(doc.dump(), "nt.json", "all_reduce"); });
  EXPECT_EQ(e,
            "nt.json: not nccl-tests output: results[1].in_place.bus_bw: -3.5 is negative: no "
            "bandwidth, time or count is");
}

// The H200 table with its figure cells replaced by `cell`.
std::string with_every_figure(const std::string& cell) {
  std::istringstream in(testing::fixture_text("nccl-tests-2.19.6-h200-all_reduce.txt"));
  std::string out, line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> t{std::istream_iterator<std::string>(fields), {}};
    if (t.size() == 13 && std::isdigit(static_cast<unsigned char>(t[0][0]))) {
      for (const int k : {6, 7, 10, 11}) t[k] = cell;
      line.clear();
      for (const auto& f : t) line += "  " + f;
    }
    out += line + "\n";
  }
  return out;
}

// A figure that is not finite is refused with its cell, like a negative one: "nan" or "inf" was
// once taken as no figure, so a table of them imported and compared as nothing judged.
TEST(NcclTests, ANonFiniteFigureIsRefusedNamingItsCell) {
  for (const std::string cell : {"nan", "inf", "-nan", "1e400"}) {
    const std::string e =
        testing::input_error_of([&] { parse_nccl_tests(with_every_figure(cell), "nan.txt"); });
    EXPECT_EQ(e.rfind("nan.txt: not nccl-tests output: line ", 0), 0u) << e;
    EXPECT_NE(e.find(", column 7 (algbw): \"" + cell + "\" is not a finite number"),
              std::string::npos)
        << e;
  }
}

// A table whose every bandwidth is N/A holds no figure, and is refused rather than imported as a
// run that any comparison would pass.
TEST(NcclTests, ATableWhoseEveryFigureIsNotAvailableIsRefused) {
  const std::string e =
      testing::input_error_of([&] { parse_nccl_tests(with_every_figure("N/A"), "na.txt"); });
  EXPECT_EQ(e.rfind("na.txt: not nccl-tests output: every bandwidth of its ", 0), 0u) << e;
  EXPECT_NE(e.find(" result rows is N/A: the table holds no figure"), std::string::npos) << e;
}

}  // namespace
}  // namespace p2p::import

namespace p2p::import {
namespace {

// A pasted command line tells the ranks of its one process; a launcher's process count it does
// not, so none is assumed there.
TEST(NcclTestsCommandLine, RanksOfOneProcessFromGpusAndThreads) {
  EXPECT_EQ(ranks_of_command_line("./build/sendrecv_perf -b 128M -e 1G -f 2 -g 8"), 8);
  EXPECT_EQ(ranks_of_command_line("$ all_reduce_perf --ngpus 4 --nthreads 2 -b 8"), 8);
  EXPECT_EQ(ranks_of_command_line("mpirun -np 16 ./all_reduce_perf_mpi -g 1"), std::nullopt);
  EXPECT_EQ(ranks_of_command_line("./all_reduce_perf -b 8 -e 1G"), std::nullopt);
  EXPECT_EQ(ranks_of_command_line("./all_reduce_perf -g 100000"), std::nullopt);
  EXPECT_EQ(collective_of_command_line("./build/sendrecv_perf -g 8"), "sendrecv");
}

}  // namespace
}  // namespace p2p::import
