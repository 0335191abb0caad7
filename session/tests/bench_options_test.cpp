// The sweep request as bench options, on the CPU: what `bench` and the node chain's bench step
// both measure for the same options.
#include "session/bench_options.hpp"

#include <gtest/gtest.h>

#include "bench/measure/host_memory.hpp"
#include "common/error.hpp"

namespace {

using p2p::session::bench_options_for;
using p2p::session::BenchSweepRequest;

TEST(BenchOptionsFor, TheDefaultsSweepEveryGpuAtBenchsSizes) {
  const p2p::bench::BenchOptions o = bench_options_for(BenchSweepRequest{});
  EXPECT_TRUE(o.gpus.empty());
  EXPECT_TRUE(o.sizes_bytes.empty());
  EXPECT_FALSE(o.full_sweep);
  EXPECT_TRUE(o.cpu_affinity);
  EXPECT_EQ(o.measure.samples, 5);
  EXPECT_EQ(o.measure.warmup_samples, 1);
  EXPECT_EQ(o.measure.host_memory, p2p::bench::HostMemory::kPinned);
}

TEST(BenchOptionsFor, EveryFieldIsCarriedOver) {
  BenchSweepRequest r;
  r.gpus = "0, 2";
  r.samples = 9;
  r.warmup_samples = 0;
  r.copies = 8;
  r.logical_gpus = 4;
  r.full = true;
  r.no_affinity = true;
  r.host_memory = "hugepages";
  const p2p::bench::BenchOptions o = bench_options_for(r);
  EXPECT_EQ(o.gpus, (std::vector<int>{0, 2}));
  EXPECT_EQ(o.measure.samples, 9);
  EXPECT_EQ(o.measure.warmup_samples, 0);
  EXPECT_EQ(o.measure.copies_per_batch, 8);
  EXPECT_EQ(o.logical_gpus, 4);
  EXPECT_TRUE(o.full_sweep);
  EXPECT_FALSE(o.cpu_affinity);
  EXPECT_EQ(o.measure.host_memory, p2p::bench::HostMemory::kHugePages);
}

TEST(BenchOptionsFor, SizesAskedForByNameAreMeasuredForEveryRoute) {
  BenchSweepRequest r;
  r.sizes = "64M,1G";
  const p2p::bench::BenchOptions o = bench_options_for(r);
  EXPECT_EQ(o.sizes_bytes, (std::vector<std::uint64_t>{64ull << 20, 1ull << 30}));
  EXPECT_TRUE(o.full_sweep);
}

TEST(BenchOptionsFor, BadListsAreBadInput) {
  BenchSweepRequest gpus;
  gpus.gpus = "0,x";
  EXPECT_THROW(bench_options_for(gpus), p2p::InputError);
  BenchSweepRequest sizes;
  sizes.sizes = "64M,,1G";
  EXPECT_THROW(bench_options_for(sizes), p2p::InputError);
}

}  // namespace
