#include "document/nccl_run.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "document/bench_document.hpp"

namespace p2p::doc {
namespace {

CollectiveResult sample_result() {
  CollectiveResult r;
  r.collective = "sendrecv_pairs";
  r.dtype = "bfloat16";
  r.nranks = 4;
  r.src_rank = 1;
  r.dst_rank = 3;
  r.size_bytes = 1 << 20;
  r.count = 1 << 19;
  r.warmup_iterations = 5;
  r.iterations = 20;
  r.time_us = 25.5;
  r.algbw_gbps = 41.1;
  r.busbw_gbps = 41.1;
  r.wrong_elements = 0;
  return r;
}

NcclRun sample_run() {
  NcclRun run;
  run.environment.nccl_library_version_code = 22803;
  run.environment.nccl_library_version = "2.28.3";
  run.environment.nccl_library_path = "/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3";
  run.environment.nccl_header_version_code = 22809;
  run.environment.nccl_header_version = "2.28.9";
  run.environment.cuda_driver_version = 13000;
  run.environment.nccl_env_user = {{"NCCL_IB_DISABLE", "1"}};
  run.environment.nccl_env_p2pcheck = {{"NCCL_DEBUG", "INFO"}};
  run.environment.devices = {{0, 2, "0000:18:00.0", "NVIDIA H200", 4321, "p2pcheck-host-0", ""}};
  run.environment.buffer_allocator = "ncclMemAlloc";
  run.transport.nranks = 1;
  run.transport.pairs[{0, 0}] = TransportCell{{"P2P/direct"}, 1};
  run.results = {sample_result()};
  return run;
}

TEST(CollectiveResultJson, RoundTripsEveryField) {
  const CollectiveResult r = sample_result();
  const nlohmann::json j = r;
  EXPECT_EQ(j.at("schema"), "p2pcheck.nccl_result");
  EXPECT_EQ(j.at("version"), 1);
  const CollectiveResult back = j.get<CollectiveResult>();
  EXPECT_EQ(back.collective, r.collective);
  EXPECT_EQ(back.dtype, r.dtype);
  EXPECT_EQ(back.src_rank, 1);
  EXPECT_EQ(back.dst_rank, 3);
  EXPECT_FALSE(back.root.has_value());
  EXPECT_EQ(back.size_bytes, r.size_bytes);
  EXPECT_EQ(back.count, r.count);
  EXPECT_DOUBLE_EQ(*back.time_us, 25.5);
  EXPECT_DOUBLE_EQ(*back.busbw_gbps, 41.1);
  EXPECT_EQ(back.wrong_elements, 0u);
  EXPECT_EQ(back.iterations, 20);
}

TEST(CollectiveResultJson, MissingNumbersAreNullNeverStrings) {
  CollectiveResult r = sample_result();
  r.status = nlohmann::json("hang").get<decltype(r.status)>();
  r.time_us.reset();
  r.algbw_gbps.reset();
  r.busbw_gbps.reset();
  r.wrong_elements.reset();
  const nlohmann::json j = r;
  EXPECT_TRUE(j.at("time_us").is_null());
  EXPECT_TRUE(j.at("busbw_gbps").is_null());
  EXPECT_TRUE(j.at("wrong_elements").is_null());
  EXPECT_TRUE(j.at("root").is_null());
  const CollectiveResult back = j.get<CollectiveResult>();
  EXPECT_FALSE(back.time_us.has_value());
  EXPECT_STREQ(doc::to_string(back.status), "hang");
}

TEST(CollectiveResultJson, RejectsOtherVersionsAndOtherRecords) {
  nlohmann::json j = sample_result();
  j["version"] = 2;
  try {
    (void)j.get<CollectiveResult>();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("version 2 is not supported"), std::string::npos);
  }
  nlohmann::json k = sample_result();
  k["schema"] = "p2pcheck.bandwidth_result";
  EXPECT_THROW((void)k.get<CollectiveResult>(), InputError);
}

TEST(NcclRunJson, RoundTripsEnvironmentTransportAndResults) {
  const NcclRun run = sample_run();
  const NcclRun back = nlohmann::json(run).get<NcclRun>();
  EXPECT_EQ(back.environment.nccl_library_version, "2.28.3");
  EXPECT_EQ(back.environment.nccl_header_version_code, 22809);
  EXPECT_EQ(back.environment.cuda_driver_version, 13000);
  EXPECT_FALSE(back.environment.cuda_runtime_version.has_value());
  EXPECT_EQ(back.environment.nccl_env_user.at("NCCL_IB_DISABLE"), "1");
  EXPECT_EQ(back.environment.buffer_allocator, "ncclMemAlloc");
  // Documents written before the field existed still read, with the allocator unknown.
  nlohmann::json older = run;
  older.at("environment").erase("buffer_allocator");
  EXPECT_EQ(older.get<NcclRun>().environment.buffer_allocator, "");
  ASSERT_EQ(back.environment.devices.size(), 1u);
  EXPECT_EQ(back.environment.devices[0].cuda_device, 2);
  EXPECT_EQ(back.environment.devices[0].pci_bus_id, "0000:18:00.0");
  EXPECT_EQ(back.transport.nranks, 1);
  ASSERT_EQ(back.results.size(), 1u);
  EXPECT_EQ(back.results[0].dst_rank, 3);
}

TEST(NcclResultsSectionFile, WritesAtomicallyAndReadsBack) {
  NcclResultsSection report;
  report.run = sample_run();
  report.p2p_off = sample_run();
  report.p2p_off->p2p_disabled = true;
  report.min_busbw_gbps = 100.0;
  BusbwVerdict v;
  v.collective = "all_reduce";
  v.dtype = "float32";
  v.status = nlohmann::json("fail").get<decltype(v.status)>();
  v.saturation_bytes = 1 << 24;
  report.verdicts = {v};
  const TempDir tmp("nccl_report");
  const std::string path = tmp.file("report.json");
  doc::BenchDocument doc;
  doc.written_by = "nccl";
  doc.nccl = report;
  write_text_file_atomically(path, nlohmann::json(doc).dump(2));
  const NcclResultsSection back = read_nccl_section(path);
  ASSERT_TRUE(back.p2p_off.has_value());
  EXPECT_TRUE(back.p2p_off->p2p_disabled);
  EXPECT_DOUBLE_EQ(*back.min_busbw_gbps, 100.0);
  ASSERT_EQ(back.verdicts.size(), 1u);
  EXPECT_STREQ(doc::to_string(back.verdicts[0].status), "fail");
  EXPECT_EQ(back.verdicts[0].saturation_bytes, 1u << 24);
}

TEST(NcclResultsSectionFile, NullP2POffAndBadFilesAreOneLineInputErrors) {
  NcclResultsSection report;
  report.run = sample_run();
  const nlohmann::json j = report;
  EXPECT_TRUE(j.at("p2p_off").is_null());
  EXPECT_TRUE(j.at("min_busbw_gbps").is_null());

  EXPECT_THROW(read_nccl_section("/nonexistent/p2pcheck/report.json"), InputError);
  const TempDir tmp("nccl_report_bad");
  const std::string path = tmp.file("report.json");
  // A malformed section is refused when the document is read, naming the document.
  nlohmann::json with_section = doc::BenchDocument{};
  with_section["nccl"] = nlohmann::json{{"schema", "p2pcheck.nccl_report"}, {"version", 9}};
  try {
    bench_document_from_json(with_section, "run.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("run.json: ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("version 9 is not supported"), std::string::npos);
  }
  with_section["nccl"] = nlohmann::json{{"schema", "p2pcheck.nccl_report"}, {"version", 1}};
  EXPECT_THROW(bench_document_from_json(with_section, "run.json"), InputError);  // missing keys
  // A bench document has no NCCL section: named, not a crash.
  doc::BenchDocument doc;
  try {
    nccl_section_of(doc, "bench.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "bench.json: holds no NCCL results (the document was written by `p2pcheck bench`)");
  }
  std::ofstream(path) << R"({"schema": "p2pcheck.bench.run", "version": 2})";
  EXPECT_THROW(read_nccl_section(path), InputError);
}

TEST(Versions, NcclAndCudaCodes) {
  EXPECT_EQ(format_nccl_version(22803), "2.28.3");
  EXPECT_EQ(format_nccl_version(21906), "2.19.6");
  EXPECT_EQ(format_nccl_version(2804), "2.8.4");
  EXPECT_EQ(format_nccl_version(0), "unknown");
  EXPECT_EQ(format_cuda_version(13000), "13.0");
  EXPECT_EQ(format_cuda_version(12080), "12.8");
}

}  // namespace
}  // namespace p2p::doc
