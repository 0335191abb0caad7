// The sweep of a `p2pcheck nccl` process: from the request, checked before anything starts,
// and for the P2P-off half the parent's own sweep handed over as a file, never rebuilt from
// flags.
#include "session/nccl_run_options.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "nccl/run/run_options_json.hpp"

namespace {

using p2p::session::NcclRequest;
using p2p::session::p2p_off_options;
using p2p::session::run_options_from_request;

TEST(NcclRunOptions, TheRequestBecomesTheSweep) {
  NcclRequest r;
  r.devices = {1, 0};
  r.ranks = 4;
  r.collectives = {"all_gather", "sendrecv"};
  r.dtypes = {"bfloat16"};
  r.min_bytes = "1K";
  r.max_bytes = "64M";
  r.step_factor = 4;
  r.iters = 7;
  r.warmup = 2;
  r.samples = 7;
  r.graph = true;
  r.timeout_s = 2.5;
  r.full = true;
  r.sweep_from_defaults = false;
  r.buffers = "cudaMalloc";
  r.benchmark_args = {"--benchmark_filter=^all_gather/"};
  const p2p::nccl::RunOptions o = run_options_from_request(r);
  EXPECT_EQ(o.devices, r.devices);
  EXPECT_EQ(o.nranks, 4);
  EXPECT_EQ(o.collectives,
            (std::vector<p2p::nccl::Collective>{p2p::nccl::Collective::kAllGather,
                                                p2p::nccl::Collective::kSendRecvRing}));
  EXPECT_EQ(o.dtypes, (std::vector<p2p::nccl::DataType>{p2p::nccl::DataType::kBfloat16}));
  EXPECT_EQ(o.sweep.min_bytes, 1024u);
  EXPECT_EQ(o.sweep.max_bytes, 64ull << 20);
  EXPECT_EQ(o.sweep.step_factor, 4u);
  EXPECT_TRUE(o.sweep.pairs_every_size);
  EXPECT_EQ(o.measure.iterations, 7);
  EXPECT_EQ(o.measure.warmup_iterations, 2);
  EXPECT_TRUE(o.measure.cuda_graph);
  EXPECT_DOUBLE_EQ(o.measure.timeout.count(), 2.5);
  EXPECT_FALSE(o.p2p_disabled);
  EXPECT_FALSE(o.sweep_from_defaults);
  EXPECT_EQ(o.buffers, p2p::nccl::BufferAllocator::kCudaMalloc);
  EXPECT_EQ(o.benchmark_args, r.benchmark_args);
}

TEST(NcclRunOptions, BadValuesAreRefusedBeforeAnythingStarts) {
  NcclRequest r;
  r.collectives = {"all_reduce", "allreduce"};
  EXPECT_THROW(run_options_from_request(r), p2p::InputError);
  r = NcclRequest{};
  r.min_bytes = "1G";
  r.max_bytes = "1K";
  EXPECT_THROW(run_options_from_request(r), p2p::InputError);
  r = NcclRequest{};
  r.benchmark_args = {"--frobnicate"};
  EXPECT_THROW(run_options_from_request(r), p2p::InputError);
}

TEST(NcclRunOptions, TheP2pOffHalfRunsTheSameSweepWithP2pDisabled) {
  NcclRequest r;
  r.collectives = {"all_reduce"};
  r.max_bytes = "1M";
  r.benchmark_args = {"--benchmark_filter=^all_reduce/", "--benchmark_format=json"};
  p2p::nccl::RunOptions parent = run_options_from_request(r);
  const p2p::nccl::RunOptions off = p2p_off_options(parent, "/var/log/nccl.log");
  EXPECT_TRUE(off.p2p_disabled);
  EXPECT_EQ(off.nccl_log_path, "/var/log/nccl.log.p2p-off");
  // Its standard output is discarded: Google Benchmark's report there would be lost anyway.
  EXPECT_EQ(off.benchmark_args, (std::vector<std::string>{"--benchmark_filter=^all_reduce/"}));
  EXPECT_EQ(p2p_off_options(parent, "").nccl_log_path, "");

  // Everything else is the parent's, as the file hands it over.
  nlohmann::json expected = nlohmann::json(parent);
  nlohmann::json got = nlohmann::json(off);
  for (const char* key : {"p2p_disabled", "nccl_log_path", "benchmark_args"}) {
    expected.erase(key);
    got.erase(key);
  }
  EXPECT_EQ(got, expected);
}

TEST(NcclRunOptions, TheP2pOffHalfReadsItsSweepFromTheFile) {
  NcclRequest r;
  r.collectives = {"broadcast", "alltoall"};
  r.min_bytes = "4K";
  r.iters = 3;
  const p2p::nccl::RunOptions off = p2p_off_options(run_options_from_request(r), "");
  char path[] = "/tmp/p2p_off_options_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  p2p::write_text_file_atomically(path, p2p::json_text(nlohmann::json(off)) + "\n");
  const p2p::nccl::RunOptions back = p2p::session::read_p2p_off_options(path);
  ::unlink(path);
  EXPECT_TRUE(back.p2p_disabled);
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(off));
  EXPECT_THROW(p2p::session::read_p2p_off_options("/nonexistent/options.json"), p2p::InputError);
}

}  // namespace
