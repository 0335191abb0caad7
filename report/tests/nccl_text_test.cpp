#include "report/nccl_text.hpp"

#include <gtest/gtest.h>

namespace p2p::report {
namespace {

doc::CollectiveResult result(const char* c, bool in_place, std::uint64_t bytes,
                             std::optional<double> time_us, const char* status = "ok") {
  doc::CollectiveResult r;
  r.collective = c;
  r.dtype = "float32";
  r.in_place = in_place;
  r.nranks = 2;
  r.size_bytes = bytes;
  r.count = bytes / 4;
  r.status = nlohmann::json(status).get<decltype(r.status)>();
  r.time_us = time_us;
  if (time_us) {
    r.algbw_gbps = bytes / (*time_us * 1e3);
    r.busbw_gbps = *r.algbw_gbps;
    r.wrong_elements = std::string(status) == "wrong" ? 3 : 0;
  }
  return r;
}

doc::NcclRun two_gpu_run() {
  doc::NcclRun run;
  run.environment.devices = {{0, 0, "0000:18:00.0", "NVIDIA H200", {}, ""},
                             {1, 3, "0000:2a:00.0", "NVIDIA H200", {}, ""}};
  run.transport.nranks = 2;
  run.transport.pairs[{0, 1}] = {{"P2P/direct"}, 24};
  run.transport.pairs[{1, 0}] = {{"SHM"}, 2};
  run.transport.rings = 24;
  run.results = {result("all_reduce", false, 1 << 20, 10.0),
                 result("all_reduce", true, 1 << 20, 12.5),
                 result("all_reduce", false, 1 << 24, std::nullopt, "hang"),
                 result("sendrecv", false, 1 << 20, 8.0, "wrong")};
  doc::CollectiveResult pair = result("sendrecv_pairs", false, 1 << 20, 20.0);
  pair.src_rank = 0;
  pair.dst_rank = 1;
  run.results.push_back(pair);
  return run;
}

TEST(ResultsTable, NcclTestsColumnsAndStatusWords) {
  const std::string t = format_results_table(two_gpu_run());
  EXPECT_NE(t.find("# all_reduce  float32\n"), std::string::npos) << t;
  EXPECT_NE(t.find("out-of-place"), std::string::npos);
  EXPECT_NE(t.find("#wrong"), std::string::npos);
  // 1 MiB in 10 us = 104.86 GB/s, count 262144 floats, type column as nccl-tests spells it.
  EXPECT_NE(
      t.find(
          "1048576       262144     float    sum    -1     10.00   104.86   104.86       0     12.50    83.89    83.89       0"),
      std::string::npos)
      << t;
  EXPECT_NE(t.find("HANG"), std::string::npos);
  EXPECT_NE(t.find("n/a"), std::string::npos);  // sendrecv has no in-place run
  EXPECT_NE(t.find("rank 0 -> rank 1 (GPU0 -> GPU3)"), std::string::npos);
  EXPECT_NE(t.find("131.07       3"), std::string::npos)
      << t;  // the wrong count of the sendrecv row
}

TEST(TransportMatrixText, CellsWithChannelsAndTheDiagonal) {
  const std::string t = format_transport_matrix(two_gpu_run());
  EXPECT_NE(t.find("rings 24"), std::string::npos) << t;
  EXPECT_NE(t.find("P2P/direct(24ch)"), std::string::npos) << t;
  EXPECT_NE(t.find("SHM(2ch)"), std::string::npos);
  EXPECT_NE(t.find("GPU3"), std::string::npos);
  EXPECT_NE(t.find(" X "), std::string::npos);
}

TEST(TransportMatrixText, SaysSoWhenNcclLoggedNothing) {
  doc::NcclRun run = two_gpu_run();
  run.transport.pairs.clear();
  EXPECT_NE(format_transport_matrix(run).find("NCCL logged no connection"), std::string::npos);
}

TEST(PairMatrix, BusbwAtTheLargestSize) {
  const std::string t = format_pair_matrix(two_gpu_run());
  EXPECT_NE(t.find("at 1 MiB, float32"), std::string::npos) << t;
  EXPECT_NE(t.find("52.4"), std::string::npos) << t;  // 1 MiB in 20 us
  doc::NcclRun none = two_gpu_run();
  none.results.pop_back();
  EXPECT_EQ(format_pair_matrix(none), "");
}

TEST(P2PComparison, SideBySideWithRatio) {
  doc::NcclRun on = two_gpu_run();
  doc::NcclRun off = two_gpu_run();
  off.p2p_disabled = true;
  off.results[0].busbw_gbps = 52.43;
  const std::string t = format_p2p_comparison(on, off);
  EXPECT_NE(t.find("P2P on vs off"), std::string::npos);
  EXPECT_NE(t.find("104.86"), std::string::npos) << t;
  EXPECT_NE(t.find("52.43"), std::string::npos);
  EXPECT_NE(t.find("2.00"), std::string::npos);
  EXPECT_NE(t.find("HANG"), std::string::npos);
  EXPECT_EQ(t.find("12.50"), std::string::npos);  // in-place rows are left out
}

TEST(P2PComparison, OneRankComparesAlgbwBecauseBusbwIsZero) {
  doc::NcclRun on;
  doc::CollectiveResult r = result("all_reduce", false, 1 << 20, 10.0);
  r.nranks = 1;
  r.busbw_gbps = 0.0;
  on.results = {r};
  doc::NcclRun off = on;
  off.results[0].algbw_gbps = *r.algbw_gbps / 2;
  const std::string t = format_p2p_comparison(on, off);
  EXPECT_NE(t.find("algbw (one rank: busbw is 0)"), std::string::npos) << t;
  EXPECT_NE(t.find("104.86        52.43      2.00"), std::string::npos) << t;
  EXPECT_NE(format_p2p_comparison(two_gpu_run(), two_gpu_run()).find("float32  busbw"),
            std::string::npos);
}

TEST(TransportMatrixText, SaysWhetherNcclSawP2PDisable) {
  doc::NcclRun run = two_gpu_run();
  run.p2p_disabled = true;
  EXPECT_NE(format_transport_matrix(run).find("did not log that it saw NCCL_P2P_DISABLE=1"),
            std::string::npos);
  run.transport.nccl_saw_p2p_disable = true;
  EXPECT_NE(format_transport_matrix(run).find("NCCL confirmed"), std::string::npos);
  EXPECT_EQ(format_transport_matrix(two_gpu_run()).find("NCCL_P2P_DISABLE"), std::string::npos);
}

TEST(Verdicts, OneLinePerSeries) {
  doc::BusbwVerdict v;
  v.collective = "all_reduce";
  v.dtype = "float32";
  v.status = nlohmann::json("fail").get<decltype(v.status)>();
  v.saturation_bytes = 1 << 24;
  v.judged_sizes = 3;
  v.median_busbw_gbps = 80.0;
  v.lowest_busbw_gbps = 78.0;
  v.min_busbw_gbps = 90.0;
  const std::string t = format_verdicts({v});
  EXPECT_NE(t.find("FAIL   all_reduce float32 out-of-place"), std::string::npos) << t;
  EXPECT_NE(t.find("median 80.00 GB/s (lowest 78.00) over 3 size(s) from 16 MiB, minimum 90.00"),
            std::string::npos)
      << t;
  EXPECT_EQ(format_verdicts({}), "");
}

TEST(EnvironmentText, VersionsDevicesAndVariables) {
  doc::NcclEnvironment env;
  env.nccl_library_version = "2.28.3";
  env.nccl_library_path = "/usr/lib/libnccl.so.2";
  env.nccl_header_version = "2.28.9";
  env.cuda_driver_version = 13000;
  env.cuda_runtime_version = 13000;
  env.devices = {{0, 0, "0000:18:00.0", "NVIDIA H200", {}, ""}};
  env.nccl_env_p2pcheck = {{"NCCL_DEBUG", "INFO"}};
  env.buffer_allocator = "ncclMemAlloc";
  const std::string t = format_environment(env);
  EXPECT_NE(t.find("# buffers from ncclMemAlloc\n"), std::string::npos) << t;
  EXPECT_NE(t.find("NCCL library 2.28.3 (/usr/lib/libnccl.so.2), headers 2.28.9"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("CUDA driver 13.0, runtime 13.0"), std::string::npos);
  EXPECT_NE(t.find("rank 0: GPU0 0000:18:00.0 NVIDIA H200"), std::string::npos);
  EXPECT_NE(t.find("set by the user: none"), std::string::npos);
  EXPECT_NE(t.find("NCCL_DEBUG=INFO"), std::string::npos);
}

}  // namespace
}  // namespace p2p::report
