#include "document/bench_document.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.hpp"

namespace {

using namespace p2p::doc;
using nlohmann::json;

BandwidthResult full_bandwidth() {
  BandwidthResult r;
  r.case_name = "ce_bidir";
  r.src = "gpu0";
  r.dst = "gpu1";
  r.src_pci = "0000:17:00.0";
  r.dst_pci = "0000:65:00.0";
  r.part = "dir";
  r.issued_by = "gpu0";
  r.method = "copy_engine";
  r.bytes = 1ull << 30;
  r.copies_per_sample = 4;
  r.samples_gbps = {50.1, 50.3, 49.9};
  r.median_gbps = 50.1;
  r.min_gbps = 49.9;
  r.max_gbps = 50.3;
  r.spread_pct = 0.8;
  r.ceiling_gbps = 63.015;
  r.ceiling_link = "PCIe gen5 x16";
  r.achieved_pct = 79.5;
  r.p2p = true;
  r.status = nlohmann::json("failed").get<decltype(r.status)>();
  r.detail = "verification failed: 3 bad words";
  r.bad_words = 3;
  return r;
}

void expect_equal(const BandwidthResult& a, const BandwidthResult& b) {
  EXPECT_EQ(json(a), json(b));
  EXPECT_EQ(a.case_name, b.case_name);
  EXPECT_EQ(a.samples_gbps, b.samples_gbps);
  EXPECT_EQ(a.median_gbps, b.median_gbps);
  EXPECT_EQ(a.p2p, b.p2p);
  EXPECT_EQ(a.bad_words, b.bad_words);
}

TEST(Results, BandwidthRoundTripKeepsEveryField) {
  const BandwidthResult r = full_bandwidth();
  const json j = r;
  EXPECT_EQ(j.at("schema"), "p2pcheck.bench.bandwidth");
  EXPECT_EQ(j.at("version"), 1);
  EXPECT_EQ(j.at("median_gbps"), 50.1);  // a number, not a string
  EXPECT_EQ(j.at("bytes"), 1ull << 30);
  expect_equal(j.get<BandwidthResult>(), r);
  expect_equal(json::parse(j.dump()).get<BandwidthResult>(), r);
}

TEST(Results, MissingNumbersAreNullAndComeBackMissing) {
  BandwidthResult r;
  r.case_name = "sm_read";
  r.bytes = 4096;  // every figure has a size, waived or not (a document saying 0 is refused)
  r.status = nlohmann::json("waived").get<decltype(r.status)>();
  r.detail = "P2P unavailable";
  const json j = r;
  for (const char* k : {"median_gbps", "min_gbps", "max_gbps", "spread_pct", "ceiling_gbps",
                        "achieved_pct", "p2p"}) {
    EXPECT_TRUE(j.at(k).is_null()) << k;
  }
  const auto back = j.get<BandwidthResult>();
  EXPECT_FALSE(back.median_gbps);
  EXPECT_FALSE(back.p2p);
  EXPECT_STREQ(p2p::doc::to_string(back.status), "waived");
}

TEST(Results, OtherVersionsAndSchemasAreRejected) {
  json j = full_bandwidth();
  j["version"] = 2;
  EXPECT_THROW(j.get<BandwidthResult>(), p2p::InputError);
  j["version"] = 1;
  j["schema"] = "p2pcheck.bench.latency";
  EXPECT_THROW(j.get<BandwidthResult>(), p2p::InputError);
  j = full_bandwidth();
  j.erase("median_gbps");
  EXPECT_THROW(j.get<BandwidthResult>(), json::out_of_range);  // j.at(), no defaults
}

TEST(Results, LatencyAndSweepRoundTrip) {
  LatencyResult l;
  l.case_name = "latency_host";
  l.src = "gpu0";
  l.dst = "host";
  l.loads_per_sample = 50000;
  l.stride_bytes = 128;
  l.samples_ns = {1190.5, 1188.0};
  l.median_ns = 1189.25;
  l.spread_pct = 0.2;
  const json jl = l;
  EXPECT_TRUE(jl.at("min_ns").is_null());
  EXPECT_EQ(json(jl.get<LatencyResult>()), jl);

  SweepSummary s;
  s.case_name = "h2d_ce";
  s.src = "host";
  s.dst = "gpu0";
  s.peak_gbps = 55.6;
  s.peak_bytes = 1 << 30;
  const json js = s;
  EXPECT_TRUE(js.at("bytes_at_90pct").is_null());
  s.bytes_at_90pct = 1 << 22;
  EXPECT_EQ(json(json(s).get<SweepSummary>()), json(s));
}

TEST(Results, DocumentRoundTripWithHeaderGateAndRecords) {
  BenchDocument d;
  d.tool_version = "0.1.0";
  d.started_utc = "2026-12-02T10:00:00Z";
  d.hostname = "vm";
  d.nvidia_driver_version = "580.159.04";
  d.cuda_driver_version = "13.0";
  d.cuda_runtime_version = "13.0";
  d.environment = "vm";
  d.topology_source = "cuda";
  d.gate.detail = "gate not available in this build";
  d.skip_gate = true;
  d.samples = 5;
  d.warmup_samples = 1;
  d.sizes_bytes = {4096, 1 << 30};
  GpuRecord g;
  g.cuda_ordinal = 0;
  g.pci_bus_id = "0000:00:06.0";
  g.name = "NVIDIA H200";
  g.cc_major = 9;
  g.link = "PCIe gen5 x16";
  g.link_gbps = 63.015;
  d.gpus = {g};
  d.p2p_access = {{false}};
  d.bandwidth = {full_bandwidth()};
  d.latency = {LatencyResult{}};
  d.latency[0].case_name = "latency_host";
  d.warnings = {"something"};
  const json j = d;
  EXPECT_EQ(j.at("schema"), "p2pcheck.bench.run");
  EXPECT_TRUE(j.at("gate").at("decision").is_null());
  EXPECT_EQ(j.at("skip_gate"), true);
  EXPECT_EQ(j.at("host").at("nvidia_driver_version"), "580.159.04");
  const BenchDocument back = bench_document_from_json(json::parse(j.dump()), "run.json");
  EXPECT_EQ(json(back), j);
  EXPECT_FALSE(back.gate.decision);
  EXPECT_EQ(back.gpus[0].link_gbps, 63.015);
}

TEST(Results, DocumentCarriesTheNcclSectionAndStillReadsVersionOne) {
  BenchDocument d;
  d.written_by = "nccl";
  d.nccl = NcclResultsSection{};
  const json j = d;
  EXPECT_EQ(j.at("version"), 4);
  EXPECT_EQ(j.at("written_by"), "nccl");
  const BenchDocument back = bench_document_from_json(json::parse(j.dump()), "nccl.json");
  EXPECT_EQ(back.written_by, "nccl");
  ASSERT_TRUE(back.nccl.has_value());
  EXPECT_EQ(json(*back.nccl).at("schema"), "p2pcheck.nccl_report");

  // A version 1 document (bench only, before the NCCL section existed) reads as bench's.
  json v1 = BenchDocument{};
  v1["version"] = 1;
  v1.erase("written_by");
  v1.erase("nccl");
  const BenchDocument old = bench_document_from_json(v1, "v1.json");
  EXPECT_EQ(old.written_by, "bench");
  EXPECT_FALSE(old.nccl.has_value());
}

// Version 3: a run on logical GPUs says so, and every GPU carries its logical id beside the
// device it ran on; a version 2 document (no such fields) reads as a physical run.
TEST(Results, LogicalGpusRoundTripAndOlderDocumentsArePhysical) {
  BenchDocument d;
  d.logical_gpus = 4;
  for (int i = 0; i < 4; ++i) {
    GpuRecord g;
    g.cuda_ordinal = i % 2;
    g.logical_gpu = i;
    d.gpus.push_back(g);
  }
  const json j = d;
  EXPECT_EQ(j.at("logical_gpus"), 4);
  EXPECT_EQ(j.at("gpus").at(3).at("logical_gpu"), 3);
  EXPECT_EQ(j.at("gpus").at(3).at("cuda_ordinal"), 1);
  const BenchDocument back = bench_document_from_json(json::parse(j.dump()), "logical.json");
  EXPECT_EQ(json(back), j);
  EXPECT_EQ(device_count(back), 2);
  EXPECT_EQ(gpu_label(back.gpus[3]), "gpu3");
  EXPECT_EQ(logical_gpus_note(back),
            "4 logical GPUs on 2 devices: figures measure the tool, not the links");

  json v2 = j;
  v2["version"] = 2;
  v2.erase("logical_gpus");
  for (auto& g : v2["gpus"]) g.erase("logical_gpu");
  const BenchDocument old = bench_document_from_json(v2, "v2.json");
  EXPECT_EQ(old.logical_gpus, 0);
  EXPECT_FALSE(old.gpus[3].logical_gpu);
  EXPECT_EQ(gpu_label(old.gpus[3]), "gpu1");
  EXPECT_EQ(logical_gpus_note(old), "");

  json negative = j;
  negative["logical_gpus"] = -1;
  EXPECT_THROW(bench_document_from_json(negative, "bad.json"), p2p::InputError);
}

// Version 3 also records how the run ended and what it cost.
TEST(Results, InterruptionAndResourcesRoundTrip) {
  BenchDocument d;
  d.full_sweep = false;
  d.interrupted = "SIGTERM after 12 figures; the rest were not measured";
  d.wall_s = 41.25;
  d.peak_rss_bytes = 2'210'000'000ull;
  const json j = d;
  EXPECT_EQ(j.at("options").at("full_sweep"), false);
  EXPECT_EQ(j.at("resources").at("peak_rss_bytes"), 2'210'000'000ull);
  const BenchDocument back = bench_document_from_json(json::parse(j.dump()), "run.json");
  EXPECT_EQ(json(back), j);
  EXPECT_EQ(describe_resources(back),
            "run: 41.2 s wall, peak memory 2.21 GB (this process and its children)\n");
  EXPECT_TRUE(json(BenchDocument{}).at("interrupted").is_null());
  EXPECT_TRUE(json(BenchDocument{}).at("resources").at("wall_s").is_null());
  EXPECT_EQ(describe_resources(BenchDocument{}), "");
}

TEST(Results, DocumentProblemsNameTheSource) {
  BenchDocument d;
  json j = d;
  j["version"] = 7;
  try {
    bench_document_from_json(j, "old.json");
    FAIL();
  } catch (const p2p::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("old.json: ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("version 7"), std::string::npos) << e.what();
  }
  j = d;
  j.erase("bandwidth");
  try {
    bench_document_from_json(j, "cut.json");
    FAIL();
  } catch (const p2p::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cut.json: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bandwidth"), std::string::npos) << e.what();
  }
}

// Every number of a document is range-checked: sizes are 1 B .. 2^62 B, counts and ordinals are
// integers in sane ranges, and a fraction or 1e300 where an integer belongs is bad input rather
// than a cast that is undefined behaviour. The message names the source and the key.
TEST(Results, NumbersOutOfRangeAreBadInputNamingTheKey) {
  BenchDocument d;
  d.bandwidth = {full_bandwidth()};
  d.gpus = {GpuRecord{}};
  const json good = d;
  EXPECT_NO_THROW(bench_document_from_json(good, "run.json"));
  struct Case {
    json::json_pointer where;
    json value;
    const char* key;
  };
  const Case cases[] = {
      {json::json_pointer("/bandwidth/0/bytes"), 0, "bytes"},
      {json::json_pointer("/bandwidth/0/bytes"), (1ull << 62) + 1, "bytes"},
      {json::json_pointer("/bandwidth/0/bytes"), 18446744073709551615ull, "bytes"},
      {json::json_pointer("/bandwidth/0/bytes"), 1e300, "bytes"},
      {json::json_pointer("/bandwidth/0/copies_per_sample"), -4, "copies_per_sample"},
      {json::json_pointer("/bandwidth/0/bad_words"), -1, "bad_words"},
      {json::json_pointer("/gpus/0/cuda_ordinal"), 1e10, "cuda_ordinal"},
      {json::json_pointer("/gpus/0/cc_major"), 9.5, "cc_major"},
      {json::json_pointer("/options/samples"), 4294967296ull, "samples"},
      {json::json_pointer("/options/sizes_bytes"), json::array({4096, 0}), "sizes_bytes"},
      {json::json_pointer("/logical_gpus"), 1e300, "logical_gpus"},
      {json::json_pointer("/version"), 3.7e300, "version"},
  };
  for (const auto& c : cases) {
    json j = good;
    j[c.where] = c.value;
    try {
      bench_document_from_json(j, "run.json");
      ADD_FAILURE() << c.where.to_string() << " = " << c.value.dump() << " was accepted";
    } catch (const p2p::InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(
                    std::string("run.json: `") + c.key + "`: expected an integer", 0),
                0u)
          << e.what();
    }
  }
  json largest = good;
  largest["bandwidth"][0]["bytes"] = 1ull << 62;
  EXPECT_EQ(bench_document_from_json(largest, "run.json").bandwidth[0].bytes, 1ull << 62);
}

}  // namespace

namespace {

using namespace p2p::doc;
using nlohmann::json;

TEST(Results, GpuUuidIsWrittenAsNvidiaSmiPrintsIt) {
  const unsigned char bytes[16] = {0x5a, 0x3c, 0x0f, 0x1e, 0x00, 0x11, 0x22, 0x33,
                                   0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xff};
  EXPECT_EQ(gpu_uuid_text(bytes), "GPU-5a3c0f1e-0011-2233-4455-66778899aaff");
}

TEST(Results, GpuUuidAndSharingRoundTripAndOlderDocumentsReadWithout) {
  BenchDocument d;
  GpuRecord g;
  g.cuda_ordinal = 0;
  g.pci_bus_id = "0000:41:00.0";
  g.uuid = "GPU-5a3c0f1e-0011-2233-4455-66778899aaff";
  d.gpus = {g};
  SharingRecord s;
  s.shared = true;
  s.checked = {"nvml", "locks"};
  s.notes = {"before: 0000:41:00.0: pid 4242 (python3, compute)"};
  s.other_pids = {4242};
  d.gpu_sharing = s;
  json j = d;
  EXPECT_EQ(j.at("gpus").at(0).at("uuid"), "GPU-5a3c0f1e-0011-2233-4455-66778899aaff");
  EXPECT_EQ(j.at("gpu_sharing").at("shared"), true);
  const BenchDocument back = bench_document_from_json(json::parse(j.dump()), "run.json");
  EXPECT_EQ(back.gpus[0].uuid, g.uuid);
  ASSERT_TRUE(back.gpu_sharing.has_value());
  EXPECT_EQ(back.gpu_sharing->other_pids, std::vector<long>{4242});
  EXPECT_EQ(json(back), j);

  // A document written before either field: no uuid key, no gpu_sharing key.
  j.at("gpus").at(0).erase("uuid");
  j.erase("gpu_sharing");
  const BenchDocument old = bench_document_from_json(json::parse(j.dump()), "old.json");
  EXPECT_FALSE(old.gpus[0].uuid.has_value());
  EXPECT_FALSE(old.gpu_sharing.has_value());
}

TEST(Results, AKeptH200DocumentStillReads) {
  const json j = json::parse(
      std::ifstream(std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json"));
  const BenchDocument d = bench_document_from_json(j, "h200-bench.json");
  ASSERT_FALSE(d.gpus.empty());
  EXPECT_FALSE(d.gpus[0].uuid.has_value());
  EXPECT_FALSE(d.gpu_sharing.has_value());
}

}  // namespace

namespace {

TEST(Results, GpuSelectionSaysHowTheMeasuredGpusWereChosen) {
  using p2p::doc::gpu_selection_text;
  EXPECT_EQ(gpu_selection_text({}, nullptr), "");
  EXPECT_EQ(gpu_selection_text({}, ""), "");
  EXPECT_EQ(gpu_selection_text({0, 3}, nullptr), "--gpus 0,3");
  EXPECT_EQ(gpu_selection_text({1}, "2,3"), "--gpus 1; CUDA_VISIBLE_DEVICES=2,3");
}

}  // namespace
