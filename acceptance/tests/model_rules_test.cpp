// The rules that know the hardware (acceptance/rules_model.cpp) against the built-in knowledge
// base: figures held to what their GPU model must deliver where the document's own figures
// cannot tell, P2P claimed but staged, GPUs without peer access, and the basis every reason
// names.
#include <gtest/gtest.h>

#include "acceptance/judge.hpp"
#include "acceptance/tests/synthetic_run.hpp"
#include "hardware/floors.hpp"

namespace p2p::accept {
namespace {

using doc::Outcome;
using testing::figure;
using testing::gpu;
using testing::healthy_eight_gpu_run;
using testing::latency;

doc::RunVerdict judge_model_run(const doc::BenchDocument& d) {
  return judge_document(d, AcceptancePolicy{}, RunFacts{}, "judge");
}

std::vector<doc::Check> model_checks(const doc::RunVerdict& v, const std::string& rule, Outcome o) {
  std::vector<doc::Check> out;
  for (const auto& c : v.checks)
    if (c.rule == rule && c.outcome == o) out.push_back(c);
  return out;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Two GPUs of `name`, as an import without a topology gives them.
doc::BenchDocument imported_pair(const std::string& name) {
  doc::BenchDocument d;
  d.written_by = "import";
  d.imported.push_back(
      doc::ImportedFile{"capture.txt", "p2pBandwidthLatencyTest", "", "text", 0, {}, {}});
  for (int i = 0; i < 2; ++i) {
    doc::GpuRecord g;
    g.cuda_ordinal = i;
    g.name = name;
    d.gpus.push_back(g);
  }
  return d;
}

doc::BandwidthResult bare(doc::BandwidthResult r) {
  r.ceiling_gbps.reset();
  r.ceiling_link.clear();
  r.achieved_pct.reset();
  return r;
}

TEST(ModelRules, AHealthyHostMeetsItsModelsPublishedFigures) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  d.p2p_access.assign(8, std::vector<bool>(8, true));
  for (int i = 0; i < 8; ++i) d.p2p_access[i][i] = false;
  const doc::RunVerdict v = judge_model_run(d);
  EXPECT_EQ(v.outcome, Outcome::kPass) << format_verdict(v, "judge");
  const auto met = model_checks(v, "model_reference", Outcome::kPass);
  ASSERT_FALSE(met.empty());
  EXPECT_EQ(met.front().basis, "model");
  EXPECT_TRUE(contains(met.front().message, "RTX PRO 6000 Blackwell Server Edition"));
  EXPECT_TRUE(contains(met.front().message, "https://"));  // the source of the reference
  EXPECT_FALSE(model_checks(v, "p2p_available", Outcome::kPass).empty());
}

// Every pair equally slow: no outlier among the pairs, no ceiling rule fails a slow-but-even
// host whose link is Gen5 (30/63 is above the SYS bound); only the model's figures catch it.
TEST(ModelRules, AHostWhoseEveryPairIsEquallySlowFailsAgainstItsModel) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  for (auto& r : d.bandwidth)
    if (r.case_name == "ce_unidir_write") r.median_gbps = 36.0, r.samples_gbps = {36.0};
  const doc::RunVerdict v = judge_model_run(d);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  const auto failed = model_checks(v, "model_reference", Outcome::kFail);
  ASSERT_FALSE(failed.empty()) << format_verdict(v, "judge");
  EXPECT_TRUE(contains(failed.front().message, "published p2p_unidir"));
  EXPECT_TRUE(contains(format_verdict(v, "judge", 1000), "[basis: the GPU model's reference]"));
}

TEST(ModelRules, APairAtX4SpeedWithoutATopologyFailsAgainstTheModelsLink) {
  doc::BenchDocument d = imported_pair("NVIDIA GeForce RTX 4090");
  d.bandwidth.push_back(bare(figure("ce_unidir_write", gpu(0), gpu(1), 6.6)));
  d.bandwidth.push_back(bare(figure("ce_unidir_write", gpu(1), gpu(0), 6.6)));
  const doc::RunVerdict v = judge_model_run(d);
  const auto failed = model_checks(v, "link_ceiling", Outcome::kFail);
  ASSERT_EQ(failed.size(), 2u) << format_verdict(v, "judge");
  EXPECT_EQ(failed.front().basis, "model");
  EXPECT_TRUE(contains(failed.front().message, "PCIe gen4 x16 of the NVIDIA GeForce RTX 4090"));
  EXPECT_TRUE(contains(failed.front().message, "21%"));
}

TEST(ModelRules, AnUnknownModelIsSaidNotGuessed) {
  doc::BenchDocument d = imported_pair("NVIDIA Graphics Device");
  d.bandwidth.push_back(bare(figure("ce_unidir_write", gpu(0), gpu(1), 6.6)));
  const doc::RunVerdict v = judge_model_run(d);
  EXPECT_TRUE(model_checks(v, "link_ceiling", Outcome::kFail).empty());
  const auto skipped = model_checks(v, "model_reference", Outcome::kSkipped);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_TRUE(contains(skipped.front().message, "NVIDIA Graphics Device"));
}

TEST(ModelRules, NoPeerAccessOnAGeForceBoxFailsNamingTheStockDriver) {
  doc::BenchDocument d = imported_pair("NVIDIA GeForce RTX 5090");
  d.p2p_access = {{false, false}, {false, false}};
  const doc::RunVerdict v = judge_model_run(d);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  const auto failed = model_checks(v, "p2p_available", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u) << format_verdict(v, "judge");
  EXPECT_TRUE(contains(failed.front().message, "P2P not in effect: no GPU pair has peer access"));
  EXPECT_TRUE(contains(failed.front().message, "stock driver refuses P2P"));
  // It is a finding, not an empty document.
  EXPECT_TRUE(model_checks(v, "figures", Outcome::kFail).empty());
}

TEST(ModelRules, SomePairsWithoutPeerAccessWarn) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  d.p2p_access.assign(8, std::vector<bool>(8, true));
  for (int i = 0; i < 8; ++i) d.p2p_access[i][i] = false;
  d.p2p_access[0][5] = d.p2p_access[5][0] = false;
  const doc::RunVerdict v = judge_model_run(d);
  const auto warned = model_checks(v, "p2p_available", Outcome::kWarn);
  ASSERT_EQ(warned.size(), 1u);
  EXPECT_TRUE(contains(warned.front().message, "2 of 56 GPU pairs"));
  EXPECT_EQ(warned.front().subject, "gpu0->gpu5 gpu5->gpu0");
}

// p2pBandwidthLatencyTest on a box whose driver grants peer access that the copies never take:
// "P2P=Enabled" equals "P2P=Disabled", latency and all.
TEST(ModelRules, PeerAccessClaimedButStagedFailsAsNotInEffect) {
  doc::BenchDocument d = imported_pair("NVIDIA RTX PRO 6000 Blackwell Workstation Edition");
  d.p2p_access = {{false, true}, {true, false}};
  for (int a = 0; a < 2; ++a) {
    const int b = 1 - a;
    d.bandwidth.push_back(bare(figure("ce_unidir_write", gpu(a), gpu(b), 40.1)));
    d.bandwidth.push_back(bare(figure("staged", gpu(a), gpu(b), 40.3, "", false)));
    d.latency.push_back(latency("memcpy_latency_p2p_write", gpu(a), gpu(b), 14100));
    doc::LatencyResult off = latency("memcpy_latency_p2p_off", gpu(a), gpu(b), 14300);
    off.p2p = false;
    d.latency.push_back(off);
  }
  const doc::RunVerdict v = judge_model_run(d);
  const auto failed = model_checks(v, "p2p_in_effect", Outcome::kFail);
  ASSERT_EQ(failed.size(), 2u) << format_verdict(v, "judge");
  EXPECT_TRUE(contains(failed.front().message, "P2P not in effect"));
  EXPECT_TRUE(contains(failed.front().message, "IOMMU/ACS"));  // what a granted model needs
  EXPECT_EQ(failed.front().basis, "measured");
  EXPECT_EQ(v.outcome, Outcome::kFail);
}

TEST(ModelRules, PeerLatencyFarBelowStagedIsInEffect) {
  doc::BenchDocument d = imported_pair("NVIDIA RTX PRO 6000 Blackwell Workstation Edition");
  d.p2p_access = {{false, true}, {true, false}};
  d.latency.push_back(latency("memcpy_latency_p2p_write", gpu(0), gpu(1), 420));
  doc::LatencyResult off = latency("memcpy_latency_p2p_off", gpu(0), gpu(1), 14000);
  off.p2p = false;
  d.latency.push_back(off);
  const doc::RunVerdict v = judge_model_run(d);
  EXPECT_EQ(model_checks(v, "p2p_in_effect", Outcome::kPass).size(), 1u)
      << format_verdict(v, "judge");
  EXPECT_EQ(model_checks(v, "model_reference", Outcome::kPass).size(), 1u);  // 0.42 us: published
}

doc::CollectiveResult all_reduce(int ranks, std::uint64_t bytes, double busbw) {
  doc::CollectiveResult r;
  r.collective = "all_reduce";
  r.dtype = "float";
  r.nranks = ranks;
  r.size_bytes = bytes;
  r.busbw_gbps = busbw;
  r.algbw_gbps = busbw * ranks / (2.0 * (ranks - 1));
  r.time_us = 1000;
  r.wrong_elements = 0;
  return r;
}

doc::BenchDocument nccl_run(int ranks, std::uint64_t bytes, double busbw) {
  doc::BenchDocument d;
  d.written_by = "nccl";
  doc::NcclResultsSection s;
  for (int i = 0; i < ranks; ++i) {
    doc::DeviceRecord dev;
    dev.rank = i;
    dev.cuda_device = i;
    dev.name = "NVIDIA RTX PRO 6000 Blackwell Server Edition";
    s.run.environment.devices.push_back(dev);
  }
  s.run.results.push_back(all_reduce(ranks, 8ull << 20, busbw / 3));
  s.run.results.push_back(all_reduce(ranks, bytes, busbw));
  d.nccl = s;
  return d;
}

TEST(ModelRules, AllReduceBelowTheModelsFloorFailsAtItsPlateau) {
  const doc::RunVerdict low = judge_model_run(nccl_run(8, 1ull << 30, 23.5));
  const auto failed = model_checks(low, "model_reference", Outcome::kFail);
  ASSERT_EQ(failed.size(), 1u) << format_verdict(low, "judge");
  EXPECT_TRUE(contains(failed.front().subject, "all_reduce 8r 1GiB"));
  EXPECT_TRUE(contains(failed.front().message, "at 8 GPUs"));
  EXPECT_NEAR(*failed.front().expected, 37.6 * hw::kBandwidthFailFraction, 0.01);
  EXPECT_EQ(low.outcome, Outcome::kFail);

  const doc::RunVerdict healthy = judge_model_run(nccl_run(8, 1ull << 30, 39.0));
  EXPECT_EQ(model_checks(healthy, "model_reference", Outcome::kPass).size(), 1u)
      << format_verdict(healthy, "judge");
  // The small sizes of the sweep are below the plateau and never judged against the floor.
  const doc::RunVerdict small = judge_model_run(nccl_run(8, 32ull << 20, 12.0));
  EXPECT_EQ(model_checks(small, "model_reference", Outcome::kSkipped).size(), 1u);
  EXPECT_TRUE(model_checks(small, "model_reference", Outcome::kFail).empty());
}

TEST(ModelRules, AGpuCountWithoutAPublishedFigureIsNotJudgedAgainstAnother) {
  const doc::RunVerdict v = judge_model_run(nccl_run(3, 1ull << 30, 10.0));
  EXPECT_TRUE(model_checks(v, "model_reference", Outcome::kFail).empty())
      << format_verdict(v, "judge");
}

}  // namespace
}  // namespace p2p::accept
