#include "nccl/rank_merge.hpp"

#include <gtest/gtest.h>

#include "common/file_io.hpp"
#include "common/temp_dir.hpp"

namespace p2p::nccl {
namespace {

const std::vector<MergeCase> kPlan = {
    {"all_reduce/float32/out_of_place/1KiB", {0, 1, 2}},
    {"all_reduce/float32/out_of_place/4KiB", {0, 1, 2}},
    {"sendrecv_pairs/float32/out_of_place/0->1/1KiB", {0, 1}},
    {"all_gather/float32/out_of_place/1KiB", {0, 1, 2}},
};

RankExit exited(int rank, int code) {
  return RankExit{rank, 1000 + rank, code, std::nullopt, false, ""};
}

TEST(RankLines, EveryKindReadsBack) {
  RankCaseLine c;
  c.case_name = kPlan[0].name;
  c.index = 0;
  c.rank = 2;
  c.status = nlohmann::json("wrong").get<decltype(c.status)>();
  c.detail = "3 wrong element(s)";
  c.sample_us = {1.5, 2.25};
  c.wrong_elements = 3;
  const std::string text = to_line(RankReadyLine{2, 4242, "ncclMemAlloc"}) +
                           progress_line(2, "warm-up") + to_line(c) +
                           to_line(RankEndLine{2, doc::RankEnd::kDone, ""});
  const RankLog log = parse_rank_log(2, text);
  ASSERT_TRUE(log.ready.has_value());
  EXPECT_EQ(log.ready->pid, 4242);
  EXPECT_EQ(log.ready->buffer_allocator, "ncclMemAlloc");
  ASSERT_EQ(log.cases.size(), 1u);
  EXPECT_EQ(log.cases[0].case_name, c.case_name);
  EXPECT_STREQ(doc::to_string(log.cases[0].status), "wrong");
  EXPECT_EQ(log.cases[0].sample_us, c.sample_us);
  EXPECT_EQ(log.cases[0].wrong_elements, std::optional<std::uint64_t>(3));
  ASSERT_TRUE(log.end.has_value());
  EXPECT_EQ(log.end->end, doc::RankEnd::kDone);
  EXPECT_EQ(log.unreadable_lines, 0);
}

TEST(RankLines, ATruncatedLastLineIsIgnoredAndCounted) {
  const std::string text =
      R"({"kind":"case","case":"all_reduce/float32/out_of_place/1KiB","index":0,"rank":1,"status":"ok","detail":"","sample_us":[4.0],"wrong_elements":0})"
      "\n"
      R"({"kind":"case","case":"all_reduce/float32/out_of_place/4KiB","index":1,"rank":1,"status":"ok","detail":"","sam)";
  const RankLog log = parse_rank_log(1, text);
  ASSERT_EQ(log.cases.size(), 1u);
  EXPECT_EQ(log.cases[0].sample_us, std::vector<double>{4.0});
  EXPECT_EQ(log.unreadable_lines, 1);
  EXPECT_FALSE(log.end.has_value());
}

// A rank's file read while it grows: each read takes what was added, a half-written line waits
// for its newline, and the final read counts a line a killed process left unfinished; the log is
// the one a single read of the whole file gives.
TEST(RankLines, AFileReadAsItGrowsGivesTheLogOfTheWholeFile) {
  p2p::TempDir dir("rank-log");
  const std::string path = dir.path() + "/rank1.jsonl";
  RankLogReader reader(1, path);
  EXPECT_TRUE(reader.read().cases.empty()) << "no file yet: an empty log";
  const std::string ready = to_line(RankReadyLine{1, 77, "cudaMalloc"});
  const std::string first =
      R"({"kind":"case","case":"a","index":0,"rank":1,"status":"ok","detail":"","sample_us":[4.0],"wrong_elements":0})"
      "\n";
  const std::string cut = R"({"kind":"case","case":"b","index":1,"rank":1,"status":"ok","deta)";
  std::string written;
  const auto append = [&](const std::string& more) {
    written += more;
    p2p::write_text_file_atomically(path, written);
  };
  append(ready + first.substr(0, 40));
  EXPECT_TRUE(reader.read().ready.has_value());
  EXPECT_TRUE(reader.read().cases.empty()) << "half a line waits";
  EXPECT_EQ(reader.read().unreadable_lines, 0);
  append(first.substr(40) + cut);
  EXPECT_EQ(reader.read().cases.size(), 1u);
  EXPECT_EQ(reader.read().unreadable_lines, 0) << "the cut line may still be finished";
  const RankLog& last = reader.read(true);
  const RankLog whole = parse_rank_log(1, written);
  ASSERT_EQ(last.cases.size(), whole.cases.size());
  EXPECT_EQ(last.cases[0].sample_us, whole.cases[0].sample_us);
  EXPECT_EQ(last.unreadable_lines, 1);
  EXPECT_EQ(last.unreadable_lines, whole.unreadable_lines);
  EXPECT_EQ(last.ready->pid, 77);
}

// Hand-written lines, as three rank processes would have written them.
std::string case_line(int rank, int index, const std::string& status, std::vector<double> samples,
                      std::optional<std::uint64_t> wrong, const std::string& detail = "") {
  RankCaseLine c;
  c.case_name = kPlan[static_cast<std::size_t>(index)].name;
  c.index = index;
  c.rank = rank;
  c.status = nlohmann::json(status).get<decltype(c.status)>();
  c.detail = detail;
  c.sample_us = std::move(samples);
  c.wrong_elements = wrong;
  return to_line(c);
}

TEST(MergeRankLogs, SlowestRankPerSampleMedianSumOfWrongWorstStatus) {
  std::vector<RankLog> logs = {
      parse_rank_log(0, case_line(0, 0, "ok", {10, 30, 20}, 0) + case_line(0, 2, "ok", {5}, 0) +
                            to_line(RankEndLine{0, doc::RankEnd::kDone, ""})),
      parse_rank_log(1, case_line(1, 0, "wrong", {12, 25, 19}, 2, "2 wrong element(s)") +
                            case_line(1, 2, "ok", {7}, 0) +
                            to_line(RankEndLine{1, doc::RankEnd::kDone, ""})),
      parse_rank_log(2, case_line(2, 0, "ok", {11, 28, 40}, 1) +
                            to_line(RankEndLine{2, doc::RankEnd::kDone, ""})),
  };
  const MergedRun m = merge_rank_logs(kPlan, logs, {exited(0, 0), exited(1, 0), exited(2, 0)});
  ASSERT_EQ(m.cases.size(), 2u);  // cases 1 and 3 reported by nobody: not invented
  const MergedCase& a = m.cases[0];
  EXPECT_EQ(a.index, 0);
  EXPECT_EQ(a.sample_us, (std::vector<double>{12, 30, 40}));
  ASSERT_TRUE(a.time_us.has_value());
  EXPECT_DOUBLE_EQ(*a.time_us, 30.0);
  EXPECT_EQ(a.wrong_elements, std::optional<std::uint64_t>(3));
  EXPECT_STREQ(doc::to_string(a.status), "wrong");
  EXPECT_EQ(a.detail, "rank 1: 2 wrong element(s)");
  // The pair case: rank 2 does not take part, so its absence is no error.
  const MergedCase& pair = m.cases[1];
  EXPECT_EQ(pair.index, 2);
  EXPECT_STREQ(doc::to_string(pair.status), "ok");
  EXPECT_DOUBLE_EQ(pair.time_us.value_or(0), 7.0);
  EXPECT_TRUE(m.warnings.empty());
  ASSERT_EQ(m.ends.size(), 3u);
  EXPECT_STREQ(doc::to_string(m.ends[1].ended), "done");
  EXPECT_EQ(m.ends[1].last_case, kPlan[2].name);
}

TEST(MergeRankLogs, HangOutranksErrorAndWrong) {
  std::vector<RankLog> logs = {
      parse_rank_log(0, case_line(0, 0, "hang", {}, std::nullopt,
                                  "no completion within 5 s (timed iterations)")),
      parse_rank_log(1, case_line(1, 0, "error", {}, std::nullopt, "NCCL error 6")),
      parse_rank_log(2, case_line(2, 0, "wrong", {1.0}, 4)),
  };
  const MergedRun m = merge_rank_logs(kPlan, logs, {exited(0, 5), exited(1, 4), exited(2, 5)});
  ASSERT_EQ(m.cases.size(), 1u);
  EXPECT_STREQ(doc::to_string(m.cases[0].status), "hang");
  EXPECT_FALSE(m.cases[0].time_us.has_value());
  EXPECT_TRUE(m.cases[0].sample_us.empty());
  EXPECT_EQ(m.cases[0].wrong_elements, std::optional<std::uint64_t>(4));
  EXPECT_NE(m.cases[0].detail.find("rank 0: no completion"), std::string::npos)
      << m.cases[0].detail;
  EXPECT_NE(m.cases[0].detail.find("rank 1: NCCL error 6"), std::string::npos) << m.cases[0].detail;
}

TEST(MergeRankLogs, ADeadRankIsNamedInTheCaseItMissedAndInTheWarnings) {
  // Rank 2 finished case 0 and was killed (SIGKILL); ranks 0 and 1 timed out in case 1.
  std::vector<RankLog> logs = {
      parse_rank_log(0,
                     case_line(0, 0, "ok", {3}, 0) +
                         case_line(0, 1, "hang", {}, std::nullopt, "no completion") +
                         to_line(RankEndLine{0, doc::RankEnd::kHang, "no completion within 5 s"})),
      parse_rank_log(1,
                     case_line(1, 0, "ok", {4}, 0) +
                         case_line(1, 1, "hang", {}, std::nullopt, "no completion") +
                         to_line(RankEndLine{1, doc::RankEnd::kHang, "no completion within 5 s"})),
      parse_rank_log(2, case_line(2, 0, "ok", {5}, 0) + R"({"kind":"case","case":"all_re)"),
  };
  const std::vector<RankExit> exits = {exited(0, 5), exited(1, 5),
                                       RankExit{2, 1234, std::nullopt, 9, false, ""}};
  const MergedRun m = merge_rank_logs(kPlan, logs, exits);
  ASSERT_EQ(m.cases.size(), 2u);  // cases 2 and 3 never reached: not invented
  EXPECT_STREQ(doc::to_string(m.cases[0].status), "ok");
  EXPECT_DOUBLE_EQ(m.cases[0].time_us.value_or(0), 5.0);  // the figures before the death are kept
  EXPECT_STREQ(doc::to_string(m.cases[1].status), "hang");
  EXPECT_NE(m.cases[1].detail.find(
                "rank 2 (pid 1234) killed by signal 9 after all_reduce/float32/out_of_place/1KiB"),
            std::string::npos)
      << m.cases[1].detail;
  ASSERT_EQ(m.ends.size(), 3u);
  EXPECT_STREQ(doc::to_string(m.ends[2].ended), "died");
  EXPECT_EQ(m.ends[2].signal, std::optional<int>(9));
  EXPECT_EQ(m.ends[2].last_case, kPlan[0].name);
  EXPECT_STREQ(doc::to_string(m.ends[0].ended), "hang");
  bool named = false, truncated = false;
  for (const auto& w : m.warnings) {
    named |= w.find("rank 2 (pid 1234) killed by signal 9; last completed case " + kPlan[0].name) !=
             std::string::npos;
    truncated |= w.find("rank 2: 1 unreadable line(s)") != std::string::npos;
  }
  EXPECT_TRUE(named);
  EXPECT_TRUE(truncated);

  doc::NcclRun run;
  run.rank_process_ends = m.ends;
  EXPECT_TRUE(doc::any_rank_died(run));
  EXPECT_TRUE(doc::any_rank_hung(run));
}

// Rank 1 dies after case 0; the parent's SIGTERM makes ranks 0 and 2 abort at once, with no
// line for the case they were cut off in: the run names the dead rank, keeps case 0, and is
// not a hang (nobody waited out a deadline).
TEST(MergeRankLogs, SurvivorsStoppedAfterADeathAreNotAHang) {
  const std::string stop0 =
      to_line(RankEndLine{0, doc::RankEnd::kStopped,
                          "stopped in all_reduce/float32/out_of_place/4KiB because "
                          "another rank process ended; communicator aborted"});
  const std::string stop2 =
      to_line(RankEndLine{2, doc::RankEnd::kStopped,
                          "stopped in all_reduce/float32/out_of_place/4KiB because "
                          "another rank process ended; communicator aborted"});
  std::vector<RankLog> logs = {parse_rank_log(0, case_line(0, 0, "ok", {3}, 0) + stop0),
                               parse_rank_log(1, case_line(1, 0, "ok", {4}, 0)),
                               parse_rank_log(2, case_line(2, 0, "ok", {5}, 0) + stop2)};
  const std::vector<RankExit> exits = {exited(0, 4), RankExit{1, 1001, std::nullopt, 9, false, ""},
                                       exited(2, 4)};
  const MergedRun m = merge_rank_logs(kPlan, logs, exits);
  ASSERT_EQ(m.cases.size(), 1u);
  EXPECT_STREQ(doc::to_string(m.cases[0].status), "ok");
  EXPECT_DOUBLE_EQ(m.cases[0].time_us.value_or(0), 5.0);
  ASSERT_EQ(m.ends.size(), 3u);
  EXPECT_STREQ(doc::to_string(m.ends[0].ended), "stopped");
  EXPECT_STREQ(doc::to_string(m.ends[1].ended), "died");
  EXPECT_STREQ(doc::to_string(m.ends[2].ended), "stopped");
  bool named = false, stopped = false;
  for (const auto& w : m.warnings) {
    named |= w == "rank 1 (pid 1001) killed by signal 9; last completed case " + kPlan[0].name;
    stopped |= w.rfind("rank(s) 0, 2 aborted their communicators", 0) == 0;
  }
  EXPECT_TRUE(named);
  EXPECT_TRUE(stopped);
  doc::NcclRun run;
  run.rank_process_ends = m.ends;
  EXPECT_TRUE(doc::any_rank_died(run));
  EXPECT_FALSE(doc::any_rank_hung(run));
}

TEST(MergeRankLogs, AMissingRankWithoutHangMakesTheCaseAnError) {
  std::vector<RankLog> logs = {
      parse_rank_log(0, case_line(0, 0, "ok", {3}, 0)),
      parse_rank_log(1, case_line(1, 0, "ok", {4}, 0)),
      parse_rank_log(2, ""),
  };
  const std::vector<RankExit> exits = {
      RankExit{0, 10, std::nullopt, 9, true, "no rank reported for 65 s"},
      RankExit{1, 11, std::nullopt, 9, true, "no rank reported for 65 s"}, exited(2, 4)};
  const MergedRun m = merge_rank_logs(kPlan, logs, exits);
  ASSERT_EQ(m.cases.size(), 1u);
  EXPECT_STREQ(doc::to_string(m.cases[0].status), "error");
  EXPECT_FALSE(m.cases[0].time_us.has_value());
  EXPECT_NE(
      m.cases[0].detail.find(
          "rank 2 (pid 1002) exited with code 4 without its final line before its first case"),
      std::string::npos)
      << m.cases[0].detail;
  EXPECT_STREQ(doc::to_string(m.ends[0].ended), "killed");
  EXPECT_STREQ(doc::to_string(m.ends[2].ended), "died");
}

}  // namespace
}  // namespace p2p::nccl

namespace p2p::nccl {
namespace {

// A run stopped by SIGTERM: rank 2 finished case 1, ranks 0 and 1 had not when they were
// killed. Case 0 (everyone's) is kept; case 1 was not measured, not failed.
TEST(MergeRankLogs, AStoppedRunKeepsOnlyTheCasesEveryRankFinished) {
  std::vector<RankLog> logs = {
      parse_rank_log(0, case_line(0, 0, "ok", {10}, 0)),
      parse_rank_log(1, case_line(1, 0, "ok", {11}, 0)),
      parse_rank_log(2, case_line(2, 0, "ok", {12}, 0) + case_line(2, 1, "ok", {20}, 0)),
  };
  const std::vector<RankExit> exits = {
      RankExit{0, 1000, std::nullopt, 9, true, "stopped on SIGTERM"},
      RankExit{1, 1001, std::nullopt, 9, true, "stopped on SIGTERM"},
      RankExit{2, 1002, std::nullopt, 9, true, "stopped on SIGTERM"},
  };
  const MergedRun m = merge_rank_logs(kPlan, logs, exits);
  ASSERT_EQ(m.cases.size(), 2u);
  EXPECT_STREQ(doc::to_string(m.cases[1].status), "error")
      << "the merge alone calls the unfinished case an error";
  const auto kept = cases_every_rank_finished(kPlan, logs, m.cases);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].index, 0);
  EXPECT_STREQ(doc::to_string(kept[0].status), "ok");
}

}  // namespace
}  // namespace p2p::nccl
