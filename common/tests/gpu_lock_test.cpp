// Two runs on one GPU see each other's locks; a run that died leaves nothing that counts.
#include "common/gpu_lock.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "common/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using p2p::GpuLocks;

class GpuLock : public ::testing::Test {
 protected:
  void TearDown() override { ::unsetenv("P2P_LOCK_DIR"); }
  p2p::TempDir tmp_{"p2p_gpu_lock"};
  fs::path dir_{tmp_.path()};
};

TEST_F(GpuLock, TwoRunsOnOneGpuSeeEachOtherAndNotThemselves) {
  GpuLocks first(dir_.string(), {"0000:41:00.0", "0000:61:00.0"}, 1111);
  EXPECT_EQ(first.held(), 2u);
  EXPECT_TRUE(first.others("0000:41:00.0").empty());
  {
    GpuLocks second(dir_.string(), {"0000:41:00.0"}, 2222);
    EXPECT_EQ(first.others("0000:41:00.0"), std::vector<long>{2222});
    EXPECT_EQ(second.others("0000:41:00.0"), std::vector<long>{1111});
    EXPECT_TRUE(first.others("0000:61:00.0").empty()) << "a lock names one GPU";
  }
  EXPECT_TRUE(first.others("0000:41:00.0").empty()) << "a finished run leaves no lock behind";
}

TEST_F(GpuLock, AFileLeftByARunThatDiedIsNotAHolderAndIsRemoved) {
  const fs::path stale = dir_ / "0000:41:00.0.3333.lock";
  std::ofstream(stale) << "";
  GpuLocks run(dir_.string(), {"0000:41:00.0"}, 1111);
  EXPECT_TRUE(run.others("0000:41:00.0").empty());
  EXPECT_FALSE(fs::exists(stale));
}

TEST_F(GpuLock, AHolderInAnotherProcessIsSeen) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    GpuLocks held(dir_.string(), {"0000:41:00.0"}, ::getpid());
    char c = 'r';
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  GpuLocks mine(dir_.string(), {"0000:41:00.0"}, ::getpid());
  EXPECT_EQ(mine.others("0000:41:00.0"), std::vector<long>{child});
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_TRUE(mine.others("0000:41:00.0").empty()) << "the kernel dropped the dead run's lock";
}

TEST_F(GpuLock, NoDirectoryMeansNoLocksAndNoHolders) {
  GpuLocks none("", {"0000:41:00.0"}, 1111);
  EXPECT_EQ(none.held(), 0u);
  EXPECT_TRUE(none.others("0000:41:00.0").empty());
}

TEST_F(GpuLock, TheDirectoryComesFromTheEnvironmentFirst) {
  const std::string dir = (dir_ / "locks").string();
  ::setenv("P2P_LOCK_DIR", dir.c_str(), 1);
  EXPECT_EQ(p2p::gpu_lock_dir(), dir);
  EXPECT_TRUE(fs::is_directory(dir));
}

}  // namespace
