#include "bench/measure/affinity.hpp"

#include <gtest/gtest.h>
#include <sched.h>

namespace {

using p2p::bench::ScopedCpuAffinity;

std::vector<int> allowed_cpus() {
  cpu_set_t m;
  CPU_ZERO(&m);
  sched_getaffinity(0, sizeof(m), &m);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &m)) cpus.push_back(c);
  return cpus;
}

TEST(Affinity, PinsForTheScopeAndRestoresAfter) {
  const auto before = allowed_cpus();
  ASSERT_FALSE(before.empty());
  {
    ScopedCpuAffinity pin({before.back()});
    EXPECT_TRUE(pin.applied()) << pin.problem();
    EXPECT_EQ(allowed_cpus(), std::vector<int>{before.back()});
  }
  EXPECT_EQ(allowed_cpus(), before);
}

TEST(Affinity, CpusOutsideTheProcessMaskAreReportedNotFatal) {
  const auto before = allowed_cpus();
  {
    ScopedCpuAffinity pin({CPU_SETSIZE - 1});
    EXPECT_FALSE(pin.applied());
    EXPECT_NE(pin.problem().find("available"), std::string::npos) << pin.problem();
    ScopedCpuAffinity none({});
    EXPECT_FALSE(none.applied());
  }
  EXPECT_EQ(allowed_cpus(), before);
}

}  // namespace
