// GPU tests (label gpu): every operation verified on real hardware, a planted wrong element
// caught, and a stuck stream turned into HANG with the communicators aborted. Skipped, with
// the reason, where NCCL or a GPU is missing.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "common/cuda_resources.hpp"
#include "nccl/nccl_env.hpp"
#include "nccl/pattern.hpp"
#include "nccl/plan.hpp"
#include "nccl/run/clique.hpp"
#include "nccl/run/measure.hpp"
#include "nccl/run/runner.hpp"
#include "nccl/run/tests/nccl_gpu_or_skip.hpp"
#include "nccl/run/verify_kernels.hpp"
#include "spin_kernel.hpp"

namespace p2p::nccl {
namespace {

using namespace std::chrono_literals;

// NCCL reads NCCL_DEBUG_FILE once per process, so every test of a process uses this one.
const std::string& log_path() {
  static const TempPath path("p2pcheck-nccl-gpu-test", ".log");
  return path.path();
}

class NcclGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    apply_environment(nccl_settings(log_path(), false));
    int n = 0;
    if (const auto why = p2p::testing::nccl_gpu_unusable(&n)) GTEST_SKIP() << *why;
    api_ = &nccl_api();
    for (int d = 0; d < n; ++d) devices_.push_back(d);
  }

  static MeasureOptions quick() {
    MeasureOptions o;
    o.warmup_iterations = 1;
    o.iterations = 3;
    o.timeout = 60s;
    return o;
  }

  static std::string label(const PlannedCase& c) {
    return to_string(c.op.collective) + " " + to_string(c.op.dtype) + " " +
           std::to_string(c.shape.size_bytes) + " B" + (c.in_place ? " in-place" : "") + " " +
           std::to_string(c.op.src_rank) + "->" + std::to_string(c.op.dst_rank);
  }

  const NcclApi* api_ = nullptr;
  std::vector<int> devices_;
};

// A flag the spin kernel polls, released from a thread after `after`.
class Latch {
 public:
  Latch() : host_(cuda::make_pinned_host(sizeof(int), cudaHostAllocMapped)) { flag() = 0; }
  ~Latch() {
    if (releaser_.joinable()) releaser_.join();
  }
  volatile int& flag() { return *static_cast<volatile int*>(host_.get()); }
  void hold(cudaStream_t s, int device) {
    cuda::DeviceGuard on(device);
    testing::launch_spin(&flag(), 20'000'000'000ull, s);  // self-releases after 20 s at worst
  }
  void release_after(std::chrono::milliseconds after) {
    releaser_ = std::thread([this, after] {
      std::this_thread::sleep_for(after);
      flag() = 1;
    });
  }
  void join() {
    if (releaser_.joinable()) releaser_.join();
  }

 private:
  cuda::PinnedHostPtr host_;
  std::thread releaser_;
};

TEST_F(NcclGpu, EveryOperationTypeAndPlacementIsVerifiedOnEveryRank) {
  Clique clique(*api_, devices_, 60s);
  // 4144 B is not a power of two, so slices do not line up with anything convenient.
  const auto plan =
      plan_cases(all_collectives(), all_data_types(), {64, 4144, 1 << 20}, clique.size());
  RankBuffers buffers = allocate_buffers(clique, buffer_bytes(plan));
  ASSERT_FALSE(plan.empty());
  for (const auto& c : plan) {
    const Measurement m = measure(clique, buffers, c.op, c.shape, c.in_place, quick());
    EXPECT_STREQ(doc::to_string(m.status), "ok") << label(c) << ": " << m.detail;
    ASSERT_TRUE(m.wrong_elements.has_value()) << label(c);
    EXPECT_EQ(*m.wrong_elements, 0u) << label(c);
    ASSERT_TRUE(m.time_us.has_value()) << label(c);
    EXPECT_GT(*m.time_us, 0.0) << label(c);
  }
}

TEST_F(NcclGpu, CudaGraphTimingRunsAndVerifies) {
  Clique clique(*api_, devices_, 60s);
  const auto plan = plan_cases({Collective::kAllReduce, Collective::kSendRecvRing},
                               {DataType::kFloat32}, {1 << 16}, clique.size());
  RankBuffers buffers = allocate_buffers(clique, buffer_bytes(plan));
  MeasureOptions o = quick();
  o.cuda_graph = true;
  for (const auto& c : plan) {
    const Measurement m = measure(clique, buffers, c.op, c.shape, c.in_place, o);
    EXPECT_STREQ(doc::to_string(m.status), "ok") << label(c) << ": " << m.detail;
    EXPECT_EQ(m.wrong_elements.value_or(1), 0u) << label(c);
    EXPECT_GT(m.time_us.value_or(0.0), 0.0) << label(c);
  }
}

TEST_F(NcclGpu, OutputCopiedToTheHostMatchesTheHostComputedReference) {
  // Independent of the GPU check kernel: read every rank's result back and compare on the host.
  Clique clique(*api_, devices_, 60s);
  const int n = clique.size();
  const auto plan =
      plan_cases({Collective::kAllReduce, Collective::kAllGather, Collective::kAllToAll},
                 {DataType::kFloat32}, {1 << 16}, n);
  RankBuffers buffers = allocate_buffers(clique, buffer_bytes(plan));
  for (const auto& c : plan) {
    if (c.in_place) continue;
    ASSERT_EQ(measure(clique, buffers, c.op, c.shape, false, quick()).status,
              doc::CollectiveStatus::kOk)
        << label(c);
    for (int r = 0; r < n; ++r) {
      std::vector<float> out(c.shape.recv_count);
      ASSERT_EQ(cudaMemcpy(out.data(), buffers.recv[static_cast<std::size_t>(r)].get(),
                           out.size() * sizeof(float), cudaMemcpyDeviceToHost),
                cudaSuccess);
      pattern::Expectation e;
      e.collective = c.op.collective;
      e.nranks = n;
      e.rank = r;
      e.count = c.shape.count;
      std::size_t mismatches = 0;
      for (std::size_t k = 0; k < out.size(); ++k) {
        if (out[k] != static_cast<float>(pattern::expected_value(e, k))) ++mismatches;
      }
      EXPECT_EQ(mismatches, 0u) << label(c) << " rank " << r;
    }
  }
}

TEST_F(NcclGpu, APlantedWrongElementIsCaughtInEveryOperation) {
  Clique clique(*api_, devices_, 60s);
  const int n = clique.size();
  const auto plan = plan_cases(all_collectives(), {DataType::kFloat32}, {4096}, n);
  RankBuffers buffers = allocate_buffers(clique, buffer_bytes(plan));
  for (Collective c : all_collectives()) {
    auto it = std::find_if(plan.begin(), plan.end(), [&](const PlannedCase& p) {
      return p.op.collective == c && !p.in_place &&
             (c != Collective::kSendRecvPair || p.op.src_rank == n - 1);
    });
    ASSERT_NE(it, plan.end()) << to_string(c);
    MeasureOptions o = quick();
    o.plant_wrong_rank = c == Collective::kSendRecvPair ? it->op.dst_rank : n - 1;
    const Measurement m = measure(clique, buffers, it->op, it->shape, false, o);
    EXPECT_STREQ(doc::to_string(m.status), "wrong") << label(*it);
    EXPECT_EQ(m.wrong_elements.value_or(0), 1u) << label(*it);
    EXPECT_NE(m.detail.find("1 wrong element"), std::string::npos) << m.detail;
  }
}

TEST_F(NcclGpu, AStuckStreamIsReportedAsHangAndTheCliqueAborted) {
  const auto plan = plan_cases({Collective::kAllReduce}, {DataType::kFloat32}, {1 << 20},
                               static_cast<int>(devices_.size()));
  Latch latch;
  Measurement m;
  {
    Clique clique(*api_, devices_, 60s);
    RankBuffers buffers = allocate_buffers(clique, buffer_bytes(plan));
    // A collective that worked once and then gets stuck, as on a host whose P2P path breaks:
    // the first run also loads NCCL's kernels for it (CUDA loads kernels lazily, and a load
    // waits for running kernels, so a first launch behind the latch would block this thread).
    ASSERT_EQ(measure(clique, buffers, plan[0].op, plan[0].shape, false, quick()).status,
              doc::CollectiveStatus::kOk);
    latch.hold(clique.stream(0), clique.device(0));
    latch.release_after(1500ms);
    MeasureOptions o = quick();
    o.timeout = 300ms;
    m = measure(clique, buffers, plan[0].op, plan[0].shape, false, o);
    latch.join();
    EXPECT_TRUE(clique.aborted());
    // Whatever the aborted communicator left queued must drain without a device fault.
    cuda::DeviceGuard on(clique.device(0));
    EXPECT_EQ(cudaStreamSynchronize(clique.stream(0)), cudaSuccess);
  }
  EXPECT_STREQ(doc::to_string(m.status), "hang");
  EXPECT_NE(m.detail.find("communicators aborted"), std::string::npos) << m.detail;
  EXPECT_FALSE(m.time_us.has_value());

  // The process carries on: a fresh clique on the same GPUs works and verifies.
  Clique again(*api_, devices_, 60s);
  RankBuffers buffers = allocate_buffers(again, buffer_bytes(plan));
  const Measurement ok = measure(again, buffers, plan[0].op, plan[0].shape, false, quick());
  EXPECT_STREQ(doc::to_string(ok.status), "ok") << ok.detail;
  EXPECT_EQ(ok.wrong_elements.value_or(1), 0u);
}

// The sweep is a set of Google Benchmarks: --benchmark_filter picks the cases, and only those
// are measured and recorded.
TEST_F(NcclGpu, BenchmarkFilterSelectsTheMeasuredCases) {
  RunOptions o;
  o.devices = devices_;
  o.collectives = {Collective::kAllReduce, Collective::kAllGather};
  o.dtypes = {DataType::kFloat32, DataType::kFloat16};
  o.sweep = {1024, 1 << 20, 32};
  o.measure = quick();
  o.nccl_log_path = log_path();
  o.benchmark_args = {"--benchmark_filter=^all_reduce/float16/in_place/"};
  const doc::NcclRun run = run_nccl_sweep(o, Progress{});
  ASSERT_EQ(run.results.size(), 3u);  // 1 KiB, 32 KiB, 1 MiB
  for (const auto& r : run.results) {
    EXPECT_EQ(r.collective, "all_reduce");
    EXPECT_EQ(r.dtype, "float16");
    EXPECT_TRUE(r.in_place);
    EXPECT_STREQ(doc::to_string(r.status), "ok") << r.detail;
    EXPECT_EQ(r.wrong_elements.value_or(1), 0u);
  }
}

TEST_F(NcclGpu, TheSweepRecordsAHangRebuildsTheCliqueAndCarriesOn) {
  RunOptions o;
  o.devices = devices_;
  o.collectives = {Collective::kAllReduce, Collective::kSendRecvRing};
  o.sweep = {1024, 4096, 4};
  o.measure = quick();
  // Long enough for a fresh clique's first operation (connections, kernel loading) on any host.
  o.measure.timeout = 2s;
  o.nccl_log_path = log_path();
  Latch latch;
  std::size_t calls = 0;
  // Stall the second case: the first has loaded every kernel the operation needs (see above).
  o.before_case = [&](Clique& clique, const PlannedCase&) {
    if (++calls != 2) return;
    latch.hold(clique.stream(0), clique.device(0));
    latch.release_after(4000ms);
  };
  const doc::NcclRun run = run_nccl_sweep(o, Progress{});
  latch.join();
  ASSERT_EQ(run.results.size(), 6u);  // all_reduce: 2 sizes x 2 placements; sendrecv: 2 sizes
  EXPECT_STREQ(doc::to_string(run.results[1].status), "hang");
  EXPECT_FALSE(run.results[1].busbw_gbps.has_value());
  for (std::size_t i = 0; i < run.results.size(); ++i) {
    if (i == 1) continue;
    EXPECT_STREQ(doc::to_string(run.results[i].status), "ok") << i << ": " << run.results[i].detail;
    EXPECT_EQ(run.results[i].wrong_elements.value_or(1), 0u) << i;
    EXPECT_GT(run.results[i].algbw_gbps.value_or(0.0), 0.0) << i;
  }
  // Environment and NCCL's own log, read back.
  ASSERT_TRUE(run.environment.nccl_library_version_code.has_value());
  EXPECT_EQ(*run.environment.nccl_library_version_code / 10000, NCCL_MAJOR);
  EXPECT_EQ(run.environment.nccl_env_p2pcheck.at("NCCL_DEBUG"), "INFO");
  // NCCL 2.19+ exports ncclMemAlloc: buffers come from it, as nccl-tests' do.
  EXPECT_EQ(run.environment.buffer_allocator,
            NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0) ? "ncclMemAlloc" : "cudaMalloc");
  EXPECT_TRUE(run.environment.cuda_driver_version.has_value());
  ASSERT_EQ(run.environment.devices.size(), devices_.size());
  EXPECT_FALSE(run.environment.devices[0].pci_bus_id.empty());
  EXPECT_EQ(run.transport.nranks, static_cast<int>(devices_.size()));
  EXPECT_EQ(run.transport.nccl_version.rfind(run.environment.nccl_library_version, 0), 0u)
      << "NCCL's log says `" << run.transport.nccl_version << "`";
}

// Every fill and check kernel, in every element type, loaded before any collective can get stuck.
TEST_F(NcclGpu, VerifyKernelsArePreloadedInEveryType) {
  cuda::DeviceGuard on(devices_.front());
  const std::vector<kernels::LoadedKernel> loaded = preload_verify_kernels();
  ASSERT_EQ(loaded.size(), 9u);  // fill_input, fill_constant, count_wrong x 3 types
  EXPECT_EQ(loaded.front().name, "fill_input<float>");
  EXPECT_EQ(loaded.back().name, "count_wrong<half>");
  for (const auto& k : loaded) EXPECT_GT(k.max_threads_per_block, 0) << k.name;
}

}  // namespace
}  // namespace p2p::nccl
