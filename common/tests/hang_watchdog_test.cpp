#include "common/hang_watchdog.hpp"

#include <gtest/gtest.h>

#include "common/exit_codes.hpp"

namespace {

using namespace std::chrono_literals;

TEST(HangWatchdog, AScopeThatEndsDisarmsIt) {
  { p2p::HangWatchdog guard("a quick call", 0.01s); }
  // Once the guard is gone its thread has been joined: nothing is left that could exit.
  std::this_thread::sleep_for(30ms);
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
