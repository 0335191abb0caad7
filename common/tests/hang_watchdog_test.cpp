#include "common/hang_watchdog.hpp"

#include <gtest/gtest.h>

#include "common/exit_codes.hpp"

namespace {

using namespace std::chrono_literals;

// Ending the scope wakes the watchdog at once: with an hour's deadline, a destructor that only
// joined the thread would hang here and the test would never finish. Once it returns the
// thread is joined, so nothing is left that could end the process later.
TEST(HangWatchdog, AScopeThatEndsDisarmsItAtOnce) {
  { p2p::HangWatchdog guard("a quick call", std::chrono::hours(1)); }
  SUCCEED();
}

TEST(HangWatchdogDeathTest, AStuckCallEndsTheProcessWithTheHangCode) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        p2p::HangWatchdog guard("ncclCommInitAll on 2 GPUs", 0.05s);
        std::mutex never;
        std::condition_variable cv;
        std::unique_lock<std::mutex> lock(never);
        cv.wait(lock, [] { return false; });  // the stuck call
      },
      ::testing::ExitedWithCode(p2p::kExitHang),
      "p2pcheck: error: ncclCommInitAll on 2 GPUs did not return within 0.05 s \\(hang\\); exiting");
}

}  // namespace
