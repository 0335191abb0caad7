#include "common/interrupt.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>

namespace {

TEST(Interrupt, TheFirstSignalIsRecordedAndTheProcessGoesOn) {
  {
    p2p::InterruptGuard guard;
    EXPECT_EQ(p2p::interrupt_signal(), 0);
    ASSERT_EQ(raise(SIGTERM), 0);
    EXPECT_EQ(p2p::interrupt_signal(), SIGTERM);
  }
  p2p::InterruptGuard fresh;  // a new run starts clean
  EXPECT_EQ(p2p::interrupt_signal(), 0);
  EXPECT_EQ(p2p::interrupt_name(SIGINT), "SIGINT");
  EXPECT_EQ(p2p::interrupted_exit_code(SIGTERM), 143);
}

TEST(InterruptDeathTest, TheSecondSignalEndsTheProcessAtOnce) {
  EXPECT_EXIT(
      {
        p2p::InterruptGuard guard;
        raise(SIGINT);
        raise(SIGINT);
        std::exit(0);  // not reached
      },
      ::testing::KilledBySignal(SIGINT), "");
}

TEST(Interrupt, HandlersAreRestoredAfterwards) {
  struct sigaction before {
  }, after{};
  sigaction(SIGTERM, nullptr, &before);
  { p2p::InterruptGuard guard; }
  sigaction(SIGTERM, nullptr, &after);
  EXPECT_EQ(before.sa_handler, after.sa_handler);
}

}  // namespace
