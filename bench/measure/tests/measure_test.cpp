// On a GPU: every kind of copy is verified word for word, a planted corruption is caught and
// reported for that transfer only, and the run goes on. Bandwidth numbers are not asserted.
#include "bench/measure/measure.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "acceptance/judge.hpp"
#include "bench/measure/no_gpu.hpp"
#include "bench/measure/run.hpp"
#include "bench/measure/tests/corrupting_verifier.hpp"
#include "bench/placement.hpp"
#include "bench/sizes.hpp"
#include "gpus/cuda_devices.hpp"
#include "report/bench_text.hpp"

namespace {

using namespace p2p::bench;
namespace doc = p2p::doc;
using p2p::bench::testing::corrupting;

#define REQUIRE_GPUS(n)                                                                   \
  do {                                                                                    \
    const auto probe = probe_cuda();                                                      \
    if (const auto why = no_gpu_reason(probe)) GTEST_SKIP() << "no usable GPU: " << *why; \
    if (probe.device_count < (n))                                                         \
      GTEST_SKIP() << "needs " << (n) << " GPUs, " << probe.device_count << " visible";   \
  } while (0)

// 16 MiB plus three words: the copy kernels' and the checks' tail paths are exercised too.
constexpr std::uint64_t kBytes = (16ull << 20) + 12;

MeasureOptions quick() {
  MeasureOptions o;
  o.samples = 2;
  o.warmup_samples = 1;
  o.copies_per_batch = 3;
  o.latency_loads = 2000;
  return o;
}

void expect_clean(const Measured& m, std::size_t lanes, const std::string& what) {
  ASSERT_EQ(m.lanes.size(), lanes) << what;
  for (const auto& l : m.lanes) {
    EXPECT_EQ(l.bad_words, 0u) << what;
    EXPECT_EQ(l.bad_samples, 0) << what;
    EXPECT_EQ(l.verified_samples, 3) << what;  // warm-up + 2 timed
    ASSERT_EQ(l.seconds.size(), 2u) << what;
    for (double s : l.seconds) EXPECT_GT(s, 0) << what;
  }
  EXPECT_EQ(m.total_seconds.size(), 2u) << what;
}

TEST(Measure, EveryKindOfCopyOnOneGpuIsVerified) {
  REQUIRE_GPUS(1);
  const Endpoint g = Endpoint::on_gpu(0), h = Endpoint::host();
  for (Method method : {Method::kCopyEngine, Method::kSm}) {
    const std::string m = to_string(method);
    expect_clean(measure_bandwidth({{h, g, 0, method}}, kBytes, quick()), 1, "h2d " + m);
    expect_clean(measure_bandwidth({{g, h, 0, method}}, kBytes, quick()), 1, "d2h " + m);
    expect_clean(measure_bandwidth({{h, g, 0, method}, {g, h, 0, method}}, kBytes, quick()), 2,
                 "h2d+d2h " + m);
    expect_clean(measure_bandwidth({{g, g, 0, method}}, kBytes, quick()), 1, "device local " + m);
  }
}

// Every row of the method table, through the table alone: a bandwidth method copies GPU to GPU
// (the GPU as its own peer, the one route every method takes) and is verified; a latency
// method walks host memory; each refuses the other metric's measurement.
TEST(Measure, EveryMethodOfTheTableMeasuresAndVerifies) {
  REQUIRE_GPUS(1);
  const Endpoint g = Endpoint::on_gpu(0), h = Endpoint::host();
  for (int i = 0; i < static_cast<int>(Method::kCount); ++i) {
    const auto method = static_cast<Method>(i);
    const std::string word = to_string(method);
    if (transfer_method(method).traits().metric == Metric::kBandwidth) {
      expect_clean(measure_bandwidth({{g, g, 0, method}}, kBytes, quick()), 1, word);
      EXPECT_THROW(measure_latency({{g, h, 0, method}}, 0, quick()), std::invalid_argument) << word;
    } else {
      const Measured m = measure_latency({{g, h, 0, method}}, 0, quick());
      EXPECT_EQ(m.latency_ns.size(), 2u) << word;
      EXPECT_EQ(m.lanes.at(0).bad_samples, 0) << word;
      EXPECT_THROW(measure_bandwidth({{g, g, 0, method}}, kBytes, quick()), std::invalid_argument)
          << word;
    }
  }
}

TEST(Measure, HugePageHostMemoryIsVerifiedToo) {
  REQUIRE_GPUS(1);
  const Endpoint g = Endpoint::on_gpu(0), h = Endpoint::host();
  MeasureOptions o = quick();
  o.host_memory = HostMemory::kHugePages;
  for (Method method : {Method::kCopyEngine, Method::kSm}) {
    const std::string m = "hugepages " + to_string(method);
    expect_clean(measure_bandwidth({{h, g, 0, method}, {g, h, 0, method}}, kBytes, o), 2, m);
  }
  const Measured lat = measure_latency({{g, h, 0, Method::kPointerChase}}, 0, o);
  EXPECT_EQ(lat.lanes[0].bad_samples, 0);
}

TEST(Measure, SmallAndOddSizesAreVerifiedToo) {
  REQUIRE_GPUS(1);
  const Endpoint g = Endpoint::on_gpu(0), h = Endpoint::host();
  for (std::uint64_t bytes : {4ull, 4096ull, 4100ull, (1ull << 20) + 8}) {
    expect_clean(measure_bandwidth({{h, g, 0, Method::kSm}}, bytes, quick()), 1,
                 std::to_string(bytes) + " B sm");
    expect_clean(measure_bandwidth({{g, h, 0, Method::kCopyEngine}}, bytes, quick()), 1,
                 std::to_string(bytes) + " B ce");
  }
}

TEST(Measure, HostLatencyWalksTheWholeChain) {
  REQUIRE_GPUS(1);
  const Measured m = measure_latency(
      {{Endpoint::on_gpu(0), Endpoint::host(), 0, Method::kPointerChase}}, 0, quick());
  ASSERT_EQ(m.latency_ns.size(), 2u);
  for (double ns : m.latency_ns) EXPECT_GT(ns, 0);
  EXPECT_EQ(m.lanes[0].bad_samples, 0);
  EXPECT_EQ(m.lanes[0].verified_samples, 3);
}

TEST(Measure, PlantedCorruptionIsCaughtForThatTransferOnly) {
  REQUIRE_GPUS(1);
  const Endpoint g = Endpoint::on_gpu(0), h = Endpoint::host();
  MeasureOptions o = quick();
  o.verifier = corrupting(h, g, 17);
  // Both directions at once: only host -> gpu0 was corrupted.
  const Measured both = measure_bandwidth(
      {{h, g, 0, Method::kCopyEngine}, {g, h, 0, Method::kCopyEngine}}, kBytes, o);
  EXPECT_EQ(both.lanes[0].bad_words, 17u * 3);
  EXPECT_EQ(both.lanes[0].bad_samples, 3);
  EXPECT_EQ(both.lanes[1].bad_words, 0u);
  // Another transfer measured with the same options is untouched.
  expect_clean(measure_bandwidth({{g, g, 0, Method::kSm}}, kBytes, o), 1, "device local");
}

// Bidirectional cases pad each lane with untimed copies; the padding copies the same data, so
// verification still sees exactly one pattern per destination, and a corruption still lands
// on its own lane only.
TEST(Measure, EachDirectionUnderLoadIsVerifiedPerLane) {
  REQUIRE_GPUS(1);
  const Endpoint g = Endpoint::on_gpu(0), h = Endpoint::host();
  MeasureOptions o = quick();
  o.each_lane_under_load = true;
  const Measured clean = measure_bandwidth(
      {{h, g, 0, Method::kCopyEngine}, {g, h, 0, Method::kCopyEngine}}, kBytes, o);
  expect_clean(clean, 2, "padded h2d+d2h ce");
  // The total of padded lanes is the sum of their rates, not the span of the slowest window.
  for (std::size_t s = 0; s < clean.total_seconds.size(); ++s) {
    const double rate_sum = 1.0 / clean.lanes[0].seconds[s] + 1.0 / clean.lanes[1].seconds[s];
    EXPECT_NEAR(clean.total_seconds[s], 2.0 / rate_sum, 1e-12) << "sample " << s;
  }
  o.verifier = corrupting(g, h, 9);
  const Measured m = measure_bandwidth(
      {{h, g, 0, Method::kCopyEngine}, {g, h, 0, Method::kCopyEngine}}, kBytes, o);
  EXPECT_EQ(m.lanes[0].bad_words, 0u);
  EXPECT_EQ(m.lanes[1].bad_words, 9u * 3);
  EXPECT_EQ(m.lanes[1].bad_samples, 3);
}

// With one GPU the pair paths still run with the GPU as its own peer: the staged pipeline
// (GPU -> pinned bounce slots -> GPU, on two streams, several chunks and a short last one) and
// the pointer chase through device memory that latency_peer uses.
TEST(Measure, StagedPipelineAndDeviceLatencyRunWithOneGpu) {
  REQUIRE_GPUS(1);
  const Endpoint g = Endpoint::on_gpu(0);
  constexpr std::uint64_t kStagedBytes = (9ull << 20) + 20;  // three 4 MiB-ish chunks, short tail
  expect_clean(measure_bandwidth({{g, g, 0, Method::kStaged}}, kStagedBytes, quick()), 1,
               "staged loopback");
  MeasureOptions o = quick();
  o.verifier = corrupting(g, g, 2);
  const Measured bad = measure_bandwidth({{g, g, 0, Method::kStaged}}, kStagedBytes, o);
  EXPECT_EQ(bad.lanes[0].bad_words, 2u * 3);
  const Measured lat = measure_latency({{g, g, 0, Method::kPointerChase}}, 0, quick());
  ASSERT_EQ(lat.latency_ns.size(), 2u);
  for (double ns : lat.latency_ns) EXPECT_GT(ns, 0);
  EXPECT_EQ(lat.lanes[0].bad_samples, 0);
  EXPECT_EQ(lat.lanes[0].verified_samples, 3);
}

// Two GPUs: two devices where there are two, else two logical GPUs on device 0, through the
// same calls (cudaMemcpyPeerAsync with equal ordinals, kernels storing into the other GPU's
// buffers, the staged pipeline, the pointer chase in the other's memory).
TEST(Measure, PairCopiesAreVerifiedByTheDestinationGpu) {
  REQUIRE_GPUS(1);
  MeasureOptions pair = quick();
  const auto inv = p2p::gpus::discover_devices();
  if (inv.devices.size() < 2) pair.placement = place_logical_gpus(2, {0});
  const Endpoint a = Endpoint::on_gpu(0), b = Endpoint::on_gpu(1);
  expect_clean(measure_bandwidth({{a, b, 0, Method::kStaged}}, kBytes, pair), 1, "staged");
  if (!pair.placement.logical() && (!inv.can_access_peer[0][1] || !inv.can_access_peer[1][0])) {
    GTEST_SKIP() << "gpu0 and gpu1 have no P2P: only the staged path applies";
  }
  expect_clean(measure_bandwidth({{a, b, 0, Method::kCopyEngine}}, kBytes, pair), 1, "ce write");
  expect_clean(measure_bandwidth({{a, b, 1, Method::kCopyEngine}}, kBytes, pair), 1, "ce read");
  expect_clean(measure_bandwidth({{a, b, 1, Method::kSm}}, kBytes, pair), 1, "sm read");
  expect_clean(measure_bandwidth({{a, b, 0, Method::kSm}}, kBytes, pair), 1, "sm write");
  expect_clean(measure_bandwidth({{a, b, 0, Method::kSm}, {b, a, 1, Method::kSm}}, kBytes, pair), 2,
               "sm bidir");
  MeasureOptions o = pair;
  o.verifier = corrupting(a, b, 5);
  const Measured m = measure_bandwidth(
      {{a, b, 0, Method::kCopyEngine}, {b, a, 1, Method::kCopyEngine}}, kBytes, o);
  EXPECT_EQ(m.lanes[0].bad_words, 15u);
  EXPECT_EQ(m.lanes[0].verified_by, "gpu1");
  EXPECT_EQ(m.lanes[1].bad_words, 0u);
  // The staged copy into b is caught by b, whichever device b lives on.
  const Measured staged = measure_bandwidth({{a, b, 0, Method::kStaged}}, kBytes, o);
  EXPECT_EQ(staged.lanes[0].bad_words, 15u);
  EXPECT_EQ(staged.lanes[0].verified_by, "gpu1");
  const Measured lat = measure_latency({{a, b, 0, Method::kPointerChase}}, 0, pair);
  EXPECT_EQ(lat.lanes[0].bad_samples, 0);
  EXPECT_EQ(lat.lanes[0].verified_samples, 3);
}

// The whole 8-GPU run on whatever devices there are: every case over all 56 ordered pairs (28
// unordered, the contention patterns, the latency matrix), each transfer checked by the GPU
// that owns its destination. One pair is corrupted: exactly the figures that carry its bytes
// fail, every other figure of the run is verified.
TEST(Measure, EightLogicalGpusMeasureAndVerifyEveryPairOfEveryCase) {
  REQUIRE_GPUS(1);
  BenchOptions opts;
  opts.gpus = {0};
  opts.logical_gpus = 8;
  opts.sizes_bytes = {(1ull << 20) + 4};
  opts.full_sweep = true;  // every route of every case: host routes of each logical GPU too
  opts.measure = quick();
  opts.measure.samples = 1;
  opts.measure.copies_per_batch = 1;
  const Endpoint bad_src = Endpoint::on_gpu(3), bad_dst = Endpoint::on_gpu(5);
  opts.measure.verifier = corrupting(bad_src, bad_dst, 7);
  BenchInputs in;
  in.topology = p2p::gpus::snapshot_from_cuda(p2p::gpus::discover_devices());
  std::ostringstream progress;
  const doc::BenchDocument d = run_bench(opts, in, progress).document;

  EXPECT_EQ(d.logical_gpus, 8);
  ASSERT_EQ(d.gpus.size(), 8u);
  for (std::size_t i = 0; i < d.gpus.size(); ++i) {
    EXPECT_EQ(d.gpus[i].logical_gpu, static_cast<int>(i));
    EXPECT_EQ(d.gpus[i].cuda_ordinal, 0);
  }
  std::map<std::string, std::set<std::string>> routes;  // case -> src->dst measured
  int failed = 0;
  for (const auto& r : d.bandwidth) {
    EXPECT_STRNE(doc::to_string(r.status), "waived")
        << r.case_name << " " << r.src << "->" << r.dst << ": " << r.detail;
    EXPECT_STRNE(doc::to_string(r.status), "error")
        << r.case_name << " " << r.src << "->" << r.dst << ": " << r.detail;
    if (r.part != "sum") routes[r.case_name].insert(r.src + "->" + r.dst);
    const bool carries_bad_pair = r.src == "gpu3" && r.dst == "gpu5";
    if (carries_bad_pair) {
      EXPECT_STREQ(doc::to_string(r.status), "failed") << r.case_name << " " << r.part;
      EXPECT_EQ(r.bad_words, 7u * 2) << r.case_name << " " << r.part;  // warm-up + 1 timed sample
      if (r.part != "sum")
        EXPECT_NE(r.detail.find("checked by gpu5"), std::string::npos) << r.detail;
    }
    if (r.status == doc::FigureStatus::kFailed) {
      ++failed;
      // Totals of runs with a gpu3->gpu5 lane fail with it; nothing else may.
      const bool total = r.part == "sum";
      EXPECT_TRUE(carries_bad_pair || total)
          << r.case_name << " " << r.src << "->" << r.dst << " " << r.part;
      if (total)
        EXPECT_NE(r.detail.find("gpu3->gpu5"), std::string::npos)
            << r.case_name << ": " << r.detail;
    }
  }
  for (const char* c : {"ce_unidir_write", "ce_unidir_read", "sm_read", "sm_write", "staged"}) {
    EXPECT_EQ(routes[c].size(), 56u) << c;
  }
  EXPECT_EQ(routes["ce_bidir"].size(), 56u);  // both directions of 28 pairs
  EXPECT_EQ(routes["sm_bidir"].size(), 56u);
  EXPECT_EQ(routes["contention_ring"].size(), 8u);
  EXPECT_EQ(routes["contention_all_to_one"].size(), 56u);
  EXPECT_EQ(routes["contention_one_to_all"].size(), 56u);
  // gpu3->gpu5 alone in 5 one-way cases; a direction and a total in ce_bidir and sm_bidir;
  // a lane and a total in all_to_one (into gpu5) and one_to_all (from gpu3).
  EXPECT_EQ(failed, 5 + 2 * 2 + 2 * 2);
  int latency_pairs = 0;
  for (const auto& r : d.latency) {
    EXPECT_STREQ(doc::to_string(r.status), "ok")
        << r.case_name << " " << r.src << "->" << r.dst << ": " << r.detail;
    latency_pairs += r.case_name == "latency_peer";
  }
  EXPECT_EQ(latency_pairs, 56);
  EXPECT_EQ(doc::exit_code(p2p::accept::judge_document(d, {}, {}, "bench")), 1);
  const std::string text = p2p::report::render_text_tables(d);
  EXPECT_NE(text.find("8 logical GPUs on 1 device: figures measure the tool, not the links"),
            std::string::npos)
      << text.substr(0, 800);
}

// The whole run: the corrupted figure is FAILED with its bad-word count, every other figure of
// the same run is verified, and the exit code says a transfer failed.
TEST(Measure, RunGoesOnAfterAFailedPairAndReportsIt) {
  REQUIRE_GPUS(1);
  BenchOptions opts;
  opts.gpus = {0};
  opts.sizes_bytes = {4ull << 20};
  opts.measure = quick();
  opts.measure.verifier = corrupting(Endpoint::host(), Endpoint::on_gpu(0), 4);
  opts.benchmark_args = {"--benchmark_filter=^(h2d_d2h_ce|device_local_ce|d2h_sm)/"};
  BenchInputs in;
  in.topology = p2p::gpus::snapshot_from_cuda(p2p::gpus::discover_devices());
  std::ostringstream progress;
  const BenchOutcome out = run_bench(opts, in, progress);
  const doc::BenchDocument& d = out.document;
  int failed = 0, ok = 0;
  for (const auto& r : d.bandwidth) {
    const bool corrupted =
        r.case_name == "h2d_d2h_ce" && (r.part == "sum" || (r.src == "host" && r.dst == "gpu0"));
    if (corrupted) {
      EXPECT_STREQ(doc::to_string(r.status), "failed")
          << r.case_name << " " << r.src << "->" << r.dst << " " << r.part;
      EXPECT_EQ(r.bad_words, 4u * 3) << r.part;
      ++failed;
    } else {
      EXPECT_STREQ(doc::to_string(r.status), "ok")
          << r.case_name << " " << r.src << "->" << r.dst << " " << r.detail;
      EXPECT_EQ(r.bad_words, 0u);
      ++ok;
    }
  }
  EXPECT_EQ(failed, 2);  // host->gpu0 direction and the total
  EXPECT_EQ(ok, 3);      // gpu0->host direction, device_local_ce, d2h_sm
  EXPECT_EQ(doc::exit_code(p2p::accept::judge_document(d, {}, {}, "bench")), 1);
  EXPECT_NE(progress.str().find("h2d_d2h_ce/host<->gpu0/4MiB"), std::string::npos)
      << progress.str();
  EXPECT_NE(p2p::report::render_text_tables(d).find("FAILED"), std::string::npos);
}

}  // namespace
