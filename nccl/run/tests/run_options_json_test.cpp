#include "nccl/run/run_options_json.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "nccl/run/runner.hpp"
#include "nccl/sweep.hpp"

namespace p2p::nccl {
namespace {

TEST(RunOptionsJson, EveryFieldARankProcessNeedsSurvivesTheRoundTrip) {
  RunOptions o;
  o.devices = {2, 0};
  o.nranks = 8;
  o.rank_processes = true;
  o.collectives = {Collective::kAllGather, Collective::kSendRecvPair};
  o.dtypes = {DataType::kBfloat16, DataType::kFloat16};
  o.sweep = {1024, 64ull << 20, 4, true};
  o.measure.warmup_iterations = 3;
  o.measure.iterations = 11;
  o.measure.samples = 4;
  o.measure.cuda_graph = true;
  o.measure.verify = false;
  o.measure.timeout = std::chrono::duration<double>(2.5);
  o.measure.plant_wrong_rank = 1;
  o.p2p_disabled = true;
  o.nccl_log_path = "/tmp/x.log";
  o.benchmark_args = {"--benchmark_filter=^all_gather/"};
  o.buffers = BufferAllocator::kCudaMalloc;

  const nlohmann::json j = o;
  EXPECT_EQ(j.at("schema"), "p2pcheck.nccl_run_options");
  const RunOptions back = nlohmann::json::parse(j.dump()).get<RunOptions>();
  EXPECT_EQ(back.devices, o.devices);
  EXPECT_EQ(back.nranks, 8);
  EXPECT_TRUE(back.rank_processes);
  EXPECT_EQ(back.collectives, o.collectives);
  EXPECT_EQ(back.dtypes, o.dtypes);
  EXPECT_EQ(back.sweep.min_bytes, 1024u);
  EXPECT_EQ(back.sweep.max_bytes, 64ull << 20);
  EXPECT_EQ(back.sweep.step_factor, 4u);
  EXPECT_TRUE(back.sweep.pairs_every_size);
  EXPECT_EQ(back.measure.warmup_iterations, 3);
  EXPECT_EQ(back.measure.iterations, 11);
  EXPECT_EQ(back.measure.samples, 4);
  EXPECT_TRUE(back.measure.cuda_graph);
  EXPECT_FALSE(back.measure.verify);
  EXPECT_DOUBLE_EQ(back.measure.timeout.count(), 2.5);
  EXPECT_EQ(back.measure.plant_wrong_rank, 1);
  EXPECT_TRUE(back.p2p_disabled);
  EXPECT_EQ(back.nccl_log_path, "/tmp/x.log");
  EXPECT_EQ(back.benchmark_args, o.benchmark_args);
  EXPECT_EQ(back.buffers, BufferAllocator::kCudaMalloc);
  EXPECT_EQ(nlohmann::json(back), j);
}

TEST(RunOptionsJson, DefaultsRoundTripAndOtherSchemasAreRefused) {
  const RunOptions o;
  EXPECT_EQ(nlohmann::json(nlohmann::json(o).get<RunOptions>()), nlohmann::json(o));
  nlohmann::json j = o;
  j["version"] = 2;
  EXPECT_THROW(j.get<RunOptions>(), InputError);
}

// Ranks sharing a GPU take turns on it: the default sweep shrinks for them, but what the user
// chose (collectives, types, buffers, the pair matrix at every size) is kept.
TEST(SharedDeviceSweep, ShrinksSizesAndIterationsAndKeepsTheRest) {
  RunOptions o;
  o.sweep_from_defaults = true;
  o.collectives = {Collective::kAllReduce, Collective::kSendRecvPair};
  o.dtypes = {DataType::kBfloat16};
  o.sweep.pairs_every_size = true;
  const RunOptions s = shared_device_sweep(o);
  EXPECT_EQ(sweep_sizes(s.sweep),
            (std::vector<std::uint64_t>{64u << 10, 256u << 10, 1u << 20, 4u << 20}));
  EXPECT_EQ(s.measure.iterations, 5);
  EXPECT_EQ(s.measure.warmup_iterations, 2);
  EXPECT_LE(s.measure.samples, s.measure.iterations);
  EXPECT_FALSE(s.sweep_from_defaults);
  EXPECT_EQ(s.collectives, o.collectives);
  EXPECT_EQ(s.dtypes, o.dtypes);
  EXPECT_TRUE(s.sweep.pairs_every_size);
}

}  // namespace
}  // namespace p2p::nccl
