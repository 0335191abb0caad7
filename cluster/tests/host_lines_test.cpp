#include "cluster/host_lines.hpp"

#include <gtest/gtest.h>

#include "cluster/tests/fixtures.hpp"
#include "common/error.hpp"

namespace p2p::cluster {
namespace {

using testing::host_fixture;

std::string line(const std::string& kind, const std::string& host, const std::string& record) {
  return R"({"schema":"p2pcheck.jsonl","version":1,"kind":")" + kind +
         R"(","command":"node","host":")" + host + R"(","utc":"2026-12-03T12:00:00Z","record":)" +
         record + "}";
}

std::string error_of(const std::string& text, const std::string& source = "h.jsonl") {
  try {
    read_host_lines(text, source);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(HostLines, AWholeRunIsReadStepByStep) {
  const HostRun h = host_fixture("node-a.jsonl");
  EXPECT_EQ(h.hostname, "node-a");
  EXPECT_EQ(h.tool_version, "0.1.0");
  EXPECT_TRUE(h.ended);
  ASSERT_TRUE(h.exit_code);
  EXPECT_EQ(*h.exit_code, 0);
  ASSERT_EQ(h.steps.size(), 4u);
  EXPECT_EQ(h.steps[0].name, "doctor");
  EXPECT_EQ(h.steps[3].name, "bench");
  EXPECT_EQ(h.last_step(), "bench");
  ASSERT_TRUE(h.topology);
  EXPECT_EQ(h.topology->gpus.size(), 8u);
  ASSERT_TRUE(h.gate_passed);
  EXPECT_TRUE(*h.gate_passed);
  EXPECT_EQ(h.doctor_verdict.at("state"), "healthy");
  ASSERT_EQ(h.figures.size(), 5u);
  EXPECT_EQ(h.figures[0].key(), "ce_unidir_write gpu0->gpu1 64MiB");
  EXPECT_EQ(h.figures[0].kind, doc::FleetFigureKind::kBandwidth);
  ASSERT_TRUE(h.figures[0].value);
  EXPECT_DOUBLE_EQ(*h.figures[0].value, 52.0);
  EXPECT_EQ(h.figures[4].kind, doc::FleetFigureKind::kLatency);
  EXPECT_EQ(h.figures[4].key(), "latency_peer gpu0->gpu1");
  EXPECT_TRUE(h.notes.empty());
}

TEST(HostLines, AKilledRunKeepsEveryWholeLineAndNotesTheCutOne) {
  const HostRun h = host_fixture("node-e.jsonl");
  EXPECT_FALSE(h.ended);
  EXPECT_FALSE(h.exit_code);
  EXPECT_EQ(h.last_step(), "gate");
  EXPECT_TRUE(h.figures.empty());  // the one figure was cut in the middle
  ASSERT_EQ(h.notes.size(), 1u);
  EXPECT_NE(h.notes[0].find("line 11 cut short"), std::string::npos) << h.notes[0];
}

TEST(HostLines, AMalformedLineInTheMiddleNamesFileAndLine) {
  try {
    host_fixture("malformed-middle.jsonl");
    FAIL() << "read a malformed file";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("malformed-middle.jsonl:3: not valid JSON"), std::string::npos) << what;
  }
}

TEST(HostLines, LinesOfAnotherKindAreRefusedWithTheirLine) {
  const std::string ok = line("run_start", "h", R"({"tool_version":"0.1.0"})") + "\n";
  EXPECT_NE(error_of(ok + "{\"schema\":\"p2pcheck.bench.run\"}\n")
                .find("h.jsonl:2: not a p2pcheck.jsonl line"),
            std::string::npos);
  std::string v2 = line("run_start", "h", "{}");
  v2.replace(v2.find("\"version\":1"), 11, "\"version\":2");
  EXPECT_NE(error_of(v2 + "\n").find("h.jsonl:1: p2pcheck.jsonl version 2 is not supported"),
            std::string::npos);
  EXPECT_NE(error_of(ok + line("run_start", "other", "{}") + "\n")
                .find("h.jsonl:2: host `other` in a file of host `h`"),
            std::string::npos);
  // A record that does not have what its kind needs.
  EXPECT_NE(error_of(ok + line("gate", "h", R"({"blocking":0})") + "\n").find("h.jsonl:2:"),
            std::string::npos);
  EXPECT_NE(error_of(ok + line("bandwidth", "h", R"({"case":"x"})") + "\n").find("h.jsonl:2:"),
            std::string::npos);
  EXPECT_NE(error_of(ok + line("topology", "h", R"({"gpus":[]})") + "\n").find("h.jsonl:2:"),
            std::string::npos);
}

// Numbers out of an int's range (a float cast to int is undefined behaviour): refused by name.
TEST(HostLines, AVersionOrExitCodeOutOfRangeIsRefusedNamingTheKey) {
  std::string huge = line("run_start", "h", "{}");
  huge.replace(huge.find("\"version\":1"), 11, "\"version\":4.61169e+19");
  EXPECT_NE(error_of(huge + "\n").find("h.jsonl:1: `version`: expected an integer"),
            std::string::npos)
      << error_of(huge + "\n");
  const std::string start = line("run_start", "h", "{}") + "\n";
  EXPECT_NE(error_of(start + line("run_end", "h", R"({"exit_code":1e300})") + "\n")
                .find("h.jsonl:2: `exit_code`: expected an integer 0..255"),
            std::string::npos)
      << error_of(start + line("run_end", "h", R"({"exit_code":1e300})") + "\n");
}

TEST(HostLines, OnlyTheLastLineMayBeCutShort) {
  const std::string start = line("run_start", "h", "{}");
  // With its newline, garbage is garbage wherever it is.
  EXPECT_NE(error_of(start + "\n{\"sche\n").find("h.jsonl:2:"), std::string::npos);
  // Without, it is what a killed writer leaves.
  const HostRun cut = read_host_lines(start + "\n{\"sche", "h.jsonl");
  EXPECT_EQ(cut.lines, 1u);
  EXPECT_EQ(cut.notes.size(), 1u);
  // A whole last line that lost only its newline is kept.
  const HostRun whole =
      read_host_lines(start + "\n" + line("run_end", "h", R"({"exit_code":0})"), "h.jsonl");
  EXPECT_TRUE(whole.ended);
  EXPECT_TRUE(whole.notes.empty());
}

TEST(HostLines, HowFarAHostGotWhenLittleArrived) {
  EXPECT_EQ(read_host_lines("", "h").last_step(), "none");
  EXPECT_EQ(read_host_lines("\n  \n", "h").last_step(), "none");
  const HostRun started = read_host_lines(line("run_start", "h", "{}") + "\n", "rank 2");
  EXPECT_EQ(started.last_step(), "start");
  EXPECT_EQ(started.name(), "h");
  EXPECT_EQ(read_host_lines("", "rank 2").name(), "rank 2");
}

}  // namespace
}  // namespace p2p::cluster
