// The progress display on a fake clock: in place on a terminal, periodic summaries with the
// time elapsed and left anywhere else.
#include "common/progress_meter.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using p2p::duration_text;
using p2p::ProgressMeter;

struct FakeClock {
  double now_s = 1000;
  ProgressMeter::Clock clock() {
    return [this] { return now_s; };
  }
};

TEST(DurationText, SecondsMinutesHours) {
  EXPECT_EQ(duration_text(0), "0s");
  EXPECT_EQ(duration_text(44.6), "45s");
  EXPECT_EQ(duration_text(59.4), "59s");
  EXPECT_EQ(duration_text(60), "1m00s");
  EXPECT_EQ(duration_text(185), "3m05s");
  EXPECT_EQ(duration_text(3599), "59m59s");
  EXPECT_EQ(duration_text(7380), "2h03m");
  EXPECT_EQ(duration_text(-3), "0s");
}

TEST(ProgressMeter, OffATerminalSummariesEveryTenSecondsFailuresAndTheEnd) {
  std::ostringstream out;
  FakeClock t;
  ProgressMeter m(out, "p2pcheck nccl: ", 8, false, t.clock());
  t.now_s += 4;
  m.update(1, "a: 10 GB/s");
  m.update(2, "b: 11 GB/s");
  EXPECT_EQ(out.str(), "") << "no line per item off a terminal";
  t.now_s += 6;  // 10 s in, 2 of 8 done: 30 s left at that pace
  m.update(2, "b: 11 GB/s");
  EXPECT_EQ(out.str(),
            "p2pcheck nccl: [2/8] 25%, 10s elapsed, about 30s left (last: b: 11 GB/s)\n");
  t.now_s += 5;
  m.update(3, "c: 10 GB/s");
  EXPECT_EQ(out.str().find("[3/8]"), std::string::npos) << "the next summary waits ten seconds";
  m.update(4, "d: HANG", true);
  EXPECT_NE(out.str().find("30s left (last: b: 11 GB/s)\np2pcheck nccl: [4/8] d: HANG\n"),
            std::string::npos)
      << "a failure is said at once\n"
      << out.str();
  t.now_s += 65;  // 80 s in, 6 of 8
  m.update(6, "f: 9 GB/s");
  EXPECT_NE(
      out.str().find("[6/8] 75%, 1m20s elapsed, about 27s left, 1 failed (last: f: 9 GB/s)\n"),
      std::string::npos)
      << out.str();
  m.update(8, "h: 12 GB/s");
  m.finish();
  m.finish();
  const std::string last = "p2pcheck nccl: [8/8] finished in 1m20s, 1 failed (last: h: 12 GB/s)\n";
  ASSERT_GE(out.str().size(), last.size());
  EXPECT_EQ(out.str().substr(out.str().size() - last.size()), last) << out.str();
  EXPECT_EQ(out.str().find(last), out.str().size() - last.size()) << "finish() says it once";
}

TEST(ProgressMeter, ARunStoppedEarlySaysSoAndAnEmptyOneSaysNothing) {
  std::ostringstream out;
  FakeClock t;
  ProgressMeter m(out, "", 10, false, t.clock());
  t.now_s += 3;
  m.update(3, "c");
  m.finish();
  EXPECT_EQ(out.str(), "[3/10] ended after 3s (last: c)\n");

  std::ostringstream quiet;
  ProgressMeter none(quiet, "", 10, false, t.clock());
  none.finish();
  EXPECT_EQ(quiet.str(), "");
}

TEST(ProgressMeter, OnATerminalOneLineRewrittenInPlaceThenANewline) {
  std::ostringstream out;
  FakeClock t;
  ProgressMeter m(out, "p2pcheck nccl: ", 2, true, t.clock());
  m.update(1, "a: 10 GB/s");
  t.now_s += 30;
  m.update(2, "b: HANG", true);
  m.finish();
  EXPECT_EQ(out.str(),
            "\r\033[Kp2pcheck nccl: [1/2] a: 10 GB/s\r\033[Kp2pcheck nccl: [2/2] b: HANG\n");
}

}  // namespace
