#include "report/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "common/error.hpp"
#include "document/bench_document.hpp"

namespace p2p::report {
namespace {

doc::BandwidthResult bw(const std::string& c, const std::string& src, const std::string& dst,
                        std::uint64_t bytes, std::optional<double> gbps,
                        const std::string& status = "ok", const std::string& detail = "") {
  doc::BandwidthResult r;
  r.case_name = c;
  r.src = src;
  r.dst = dst;
  r.bytes = bytes;
  r.median_gbps = gbps;
  r.status = nlohmann::json(status).get<decltype(r.status)>();
  r.detail = detail;
  return r;
}

const FigureChange& find(const Comparison& c, const std::string& key) {
  const auto it = std::find_if(c.figures.begin(), c.figures.end(),
                               [&](const FigureChange& f) { return f.key == key; });
  if (it == c.figures.end()) throw std::runtime_error("no figure " + key);
  return *it;
}

constexpr std::uint64_t k512M = 512ull << 20;

doc::CollectiveResult coll(const std::string& op, int nranks, std::uint64_t bytes,
                           std::optional<double> busbw, std::optional<double> algbw,
                           const std::string& status = "ok") {
  doc::CollectiveResult r;
  r.collective = op;
  r.dtype = "float32";
  r.nranks = nranks;
  r.size_bytes = bytes;
  r.busbw_gbps = busbw;
  r.algbw_gbps = algbw;
  r.status = nlohmann::json(status).get<decltype(r.status)>();
  if (status != "ok")
    r.detail = "no completion within 30 s (timed iterations); communicators aborted";
  return r;
}

doc::BenchDocument nccl_document(
    std::vector<doc::CollectiveResult> results,
    std::optional<std::vector<doc::CollectiveResult>> p2p_off = std::nullopt) {
  doc::NcclResultsSection report;
  report.run.results = std::move(results);
  if (p2p_off) {
    report.p2p_off = doc::NcclRun{};
    report.p2p_off->p2p_disabled = true;
    report.p2p_off->results = *p2p_off;
  }
  doc::BenchDocument d;
  d.written_by = "nccl";
  d.nccl = report;
  return d;
}

// NCCL: busbw is judged with several ranks, algbw with one (busbw is 0 there); a collective that
// hangs in the run is lost; the P2P-off sweep is compared on its own keys.
TEST(Compare, NcclBusbwRegressionsAndLostCollectives) {
  const auto base = nccl_document(
      {coll("all_reduce", 8, 1ull << 30, 200.0, 114.3),
       coll("all_gather", 8, 1ull << 30, 180.0, 205.7),
       coll("all_reduce", 1, 1ull << 30, 0.0, 2130.0),
       coll("broadcast", 8, 1ull << 20, 20.0, 20.0)},
      std::vector<doc::CollectiveResult>{coll("all_reduce", 8, 1ull << 30, 40.0, 22.9)});
  const auto run = nccl_document(
      {coll("all_reduce", 8, 1ull << 30, 150.0, 85.7),
       coll("all_gather", 8, 1ull << 30, std::nullopt, std::nullopt, "hang"),
       coll("all_reduce", 1, 1ull << 30, 0.0, 2100.0),
       coll("broadcast", 8, 1ull << 20, 10.0, 10.0)},
      std::vector<doc::CollectiveResult>{coll("all_reduce", 8, 1ull << 30, 41.0, 23.4)});
  const Comparison c = compare_runs(base, run, CompareOptions{5.0, 64ull << 20});
  const FigureChange& ar = find(c, "nccl all_reduce float32 out_of_place 8r 1GiB busbw");
  EXPECT_EQ(ar.change, doc::Change::kRegressed);
  EXPECT_NEAR(*ar.change_pct, -25.0, 1e-9);
  EXPECT_EQ(find(c, "nccl all_gather float32 out_of_place 8r 1GiB busbw").change,
            doc::Change::kLost);
  EXPECT_EQ(find(c, "nccl all_reduce float32 out_of_place 1r 1GiB algbw").change,
            doc::Change::kSame);  // -1.4%
  EXPECT_EQ(find(c, "nccl broadcast float32 out_of_place 8r 1MiB busbw").change,
            doc::Change::kNotJudged);  // < 64 MiB
  EXPECT_EQ(find(c, "p2p_off nccl all_reduce float32 out_of_place 8r 1GiB busbw").change,
            doc::Change::kSame);
  EXPECT_EQ(c.regressions(), 2);
}

TEST(Compare, NcclRunsOnDifferentRankCountsAreNeverJudgedAgainstEachOther) {
  const auto base = nccl_document({coll("all_reduce", 8, 1ull << 30, 200.0, 114.3)});
  const auto run = nccl_document({coll("all_reduce", 4, 1ull << 30, 100.0, 66.7)});
  const Comparison c = compare_runs(base, run, CompareOptions{});
  EXPECT_EQ(find(c, "nccl all_reduce float32 out_of_place 8r 1GiB busbw").change,
            doc::Change::kMissing);
  EXPECT_EQ(find(c, "nccl all_reduce float32 out_of_place 4r 1GiB busbw").change,
            doc::Change::kNew);
  EXPECT_EQ(c.regressions(), 0);
}

// Logical GPUs measure the tool: a logical run is never judged against a physical one unless
// asked, and the text says which side was logical.
TEST(Compare, LogicalRunAgainstPhysicalIsRefusedUnlessAllowed) {
  doc::BenchDocument physical, logical;
  physical.bandwidth = {bw("ce_unidir_write", "gpu0", "gpu1", k512M, 50.0)};
  logical.bandwidth = {bw("ce_unidir_write", "gpu0", "gpu1", k512M, 1500.0)};
  logical.logical_gpus = 8;
  doc::GpuRecord g;
  g.cuda_ordinal = 0;
  g.logical_gpu = 0;
  logical.gpus = {g};
  try {
    compare_runs(physical, logical, CompareOptions{});
    FAIL() << "a logical run was judged against a physical one";
  } catch (const InputError& e) {
    EXPECT_STREQ(
        e.what(),
        "compare: the run ran on 8 logical GPUs, the baseline on physical ones; its figures measure the tool, "
        "not the links (--allow-logical compares them anyway)");
  }
  EXPECT_THROW(compare_runs(logical, physical, CompareOptions{}), InputError);
  CompareOptions allow;
  allow.allow_logical = true;
  const Comparison c = compare_runs(physical, logical, allow);
  EXPECT_EQ(find(c, "ce_unidir_write gpu0->gpu1 512MiB").change, doc::Change::kImproved);
  EXPECT_EQ(
      logical_gpus_lines(physical, logical),
      "note: the run ran 8 logical GPUs on 1 device: figures measure the tool, not the links\n");
  // Two logical runs compare as they are (CI on one-GPU runners keeps a logical baseline).
  EXPECT_EQ(compare_runs(logical, logical, CompareOptions{}).regressions(), 0);
}

TEST(Compare, DropBeyondToleranceRegressesSmallMoveIsSame) {
  doc::BenchDocument base, run;
  base.bandwidth = {bw("h2d_ce", "host", "gpu0", k512M, 55.0),
                    bw("d2h_ce", "gpu0", "host", k512M, 55.0)};
  run.bandwidth = {bw("h2d_ce", "host", "gpu0", k512M, 49.5),
                   bw("d2h_ce", "gpu0", "host", k512M, 54.0)};
  const Comparison c = compare_runs(base, run, CompareOptions{5.0, 64ull << 20});
  EXPECT_EQ(find(c, "h2d_ce host->gpu0 512MiB").change, doc::Change::kRegressed);
  EXPECT_NEAR(*find(c, "h2d_ce host->gpu0 512MiB").change_pct, -10.0, 1e-9);
  EXPECT_EQ(find(c, "d2h_ce gpu0->host 512MiB").change, doc::Change::kSame);
  EXPECT_EQ(c.regressions(), 1);
}

// Two tools time slightly different things: between them a 7% move is noise by default (10%),
// and the comparison says why it took that tolerance; within one tool it regresses (5%), and
// --tolerance-pct decides wherever it is given.
TEST(Compare, BetweenDifferentToolsTheDefaultToleranceIsWiderAndSaid) {
  doc::BenchDocument peer, base, run;
  peer.bandwidth = base.bandwidth = {bw("h2d_ce", "host", "gpu0", k512M, 55.0)};
  peer.written_by = "import";
  peer.imported = {doc::ImportedFile{"nvb.txt", "nvbandwidth", "v0.8", "text", 1, {}}};
  run.bandwidth = {bw("h2d_ce", "host", "gpu0", k512M, 51.15)};  // -7%
  const Comparison across = compare_runs(peer, run, CompareOptions{});
  EXPECT_EQ(find(across, "h2d_ce host->gpu0 512MiB").change, doc::Change::kSame);
  EXPECT_DOUBLE_EQ(across.tolerance_pct, kToleranceAcrossToolsPct);
  EXPECT_EQ(across.tolerance_why,
            "the default between different tools: nvbandwidth v0.8 against p2pcheck");
  const std::string text = format_comparison(across, "nvb.json", "run.json", CompareOptions{});
  EXPECT_NE(text.find("moves beyond 10.0%\n  (the default between different tools: nvbandwidth "
                      "v0.8 against p2pcheck; --tolerance-pct sets it)"),
            std::string::npos)
      << text;
  const Comparison one_tool = compare_runs(base, run, CompareOptions{});
  EXPECT_EQ(find(one_tool, "h2d_ce host->gpu0 512MiB").change, doc::Change::kRegressed);
  EXPECT_DOUBLE_EQ(one_tool.tolerance_pct, kToleranceOneToolPct);
  EXPECT_EQ(one_tool.tolerance_why, "");
  CompareOptions given;
  given.tolerance_pct = 5.0;
  const Comparison strict = compare_runs(peer, run, given);
  EXPECT_EQ(find(strict, "h2d_ce host->gpu0 512MiB").change, doc::Change::kRegressed);
  EXPECT_EQ(strict.tolerance_why, "");
}

TEST(Compare, P2pWaivedInTheRunIsLostWithTheReason) {
  // The LXC baseline had P2P between gpu0 and gpu1; the VFIO VM run waives it.
  doc::BenchDocument lxc, vm;
  lxc.bandwidth = {bw("ce_unidir_write", "gpu0", "gpu1", k512M, 54.8)};
  vm.bandwidth = {bw("ce_unidir_write", "gpu0", "gpu1", k512M, std::nullopt, "waived",
                     "cudaDeviceCanAccessPeer(gpu0, gpu1) = 0")};
  const Comparison c = compare_runs(lxc, vm, CompareOptions{});
  const auto& f = find(c, "ce_unidir_write gpu0->gpu1 512MiB");
  EXPECT_EQ(f.change, doc::Change::kLost);
  EXPECT_EQ(f.run_status, "waived");
  EXPECT_EQ(c.regressions(), 1);
  EXPECT_NE(format_comparison(c, "lxc.json", "vm.json", CompareOptions{})
                .find("cudaDeviceCanAccessPeer(gpu0, gpu1) = 0"),
            std::string::npos);
}

TEST(Compare, SmallCopiesAreNotJudgedButStillCompared) {
  doc::BenchDocument base, run;
  base.bandwidth = {bw("h2d_ce", "host", "gpu0", 4096, 1.7)};
  run.bandwidth = {bw("h2d_ce", "host", "gpu0", 4096, 0.9)};
  const Comparison c = compare_runs(base, run, CompareOptions{5.0, 64ull << 20});
  const auto& f = find(c, "h2d_ce host->gpu0 4KiB");
  EXPECT_EQ(f.change, doc::Change::kNotJudged);
  ASSERT_TRUE(f.change_pct.has_value());
  EXPECT_EQ(c.regressions(), 0);
}

doc::LatencyResult host_latency(double median_ns) {
  doc::LatencyResult l;
  l.case_name = "latency_host";
  l.src = "gpu0";
  l.dst = "host";
  l.median_ns = median_ns;
  return l;
}

TEST(Compare, LatencyRegressesWhenItGrows) {
  doc::BenchDocument base, run;
  doc::LatencyResult l = host_latency(1190);
  base.latency = {l};
  l.median_ns = 1400;
  run.latency = {l};
  const Comparison c = compare_runs(base, run, CompareOptions{});
  EXPECT_EQ(find(c, "latency_host gpu0->host").change, doc::Change::kRegressed);
  EXPECT_EQ(find(c, "latency_host gpu0->host").unit, "ns");
  l.median_ns = 1000;
  run.latency = {l};
  EXPECT_EQ(find(compare_runs(base, run, CompareOptions{}), "latency_host gpu0->host").change,
            doc::Change::kImproved);
}

TEST(Compare, FiguresOnOneSideOnlyAreNewOrMissing) {
  doc::BenchDocument base, run;
  base.bandwidth = {bw("sm_read", "gpu0", "gpu1", k512M, 50.0)};
  run.bandwidth = {bw("sm_write", "gpu0", "gpu1", k512M, 50.0)};
  const Comparison c = compare_runs(base, run, CompareOptions{});
  EXPECT_EQ(find(c, "sm_read gpu0->gpu1 512MiB").change, doc::Change::kMissing);
  EXPECT_EQ(find(c, "sm_write gpu0->gpu1 512MiB").change, doc::Change::kNew);
  EXPECT_EQ(c.regressions(), 0);
}

// Runs of different size grids: the text says so in one line with the sizes in common and the
// option; --common-sizes compares only those, so the others are neither missing nor new.
TEST(Compare, DifferentSizeGridsAreSaidOnceAndCommonSizesAlignsThem) {
  constexpr std::uint64_t k1G = 1ull << 30, k64M = 64ull << 20;
  doc::BenchDocument base, run;
  base.bandwidth = {bw("sm_read", "gpu0", "gpu1", k64M, 50.0),
                    bw("sm_read", "gpu0", "gpu1", k512M, 50.0)};
  run.bandwidth = {bw("sm_read", "gpu0", "gpu1", k512M, 50.0),
                   bw("sm_read", "gpu0", "gpu1", k1G, 50.0)};
  const Comparison c = compare_runs(base, run, CompareOptions{});
  EXPECT_EQ(find(c, "sm_read gpu0->gpu1 64MiB").change, doc::Change::kMissing);
  const std::string text = format_comparison(c, "a.json", "b.json", CompareOptions{});
  EXPECT_NE(text.find("note: the runs measured different sizes: baseline 2 (64MiB to 512MiB), "
                      "run 2 (512MiB to 1GiB), 1 in common; figures of the others are missing "
                      "or new for that alone (--common-sizes compares the sizes both have)\n"),
            std::string::npos)
      << text;
  CompareOptions common;
  common.common_sizes = true;
  const Comparison aligned = compare_runs(base, run, common);
  EXPECT_EQ(find(aligned, "sm_read gpu0->gpu1 64MiB").change, doc::Change::kOneSideOnly);
  EXPECT_EQ(find(aligned, "sm_read gpu0->gpu1 1GiB").change, doc::Change::kOneSideOnly);
  EXPECT_EQ(find(aligned, "sm_read gpu0->gpu1 512MiB").change, doc::Change::kSame);
  EXPECT_EQ(aligned.verdict.outcome, doc::Outcome::kPass);
  EXPECT_NE(format_comparison(aligned, "a", "b", common).find("only those are compared"),
            std::string::npos);
}

// The table's rows come worst first (lost, then the largest regression), not by name, and fit
// in 100 columns.
TEST(Compare, RowsComeWorstFirstWithin100Columns) {
  doc::BenchDocument base, run;
  base.bandwidth = {bw("a_small_drop", "gpu0", "gpu1", k512M, 50.0),
                    bw("b_big_drop", "gpu0", "gpu1", k512M, 50.0),
                    bw("c_gain", "gpu0", "gpu1", k512M, 50.0),
                    bw("d_lost", "gpu0", "gpu1", k512M, 50.0)};
  run.bandwidth = {bw("a_small_drop", "gpu0", "gpu1", k512M, 40.0),
                   bw("b_big_drop", "gpu0", "gpu1", k512M, 10.0),
                   bw("c_gain", "gpu0", "gpu1", k512M, 60.0),
                   bw("d_lost", "gpu0", "gpu1", k512M, std::nullopt, "waived",
                      "P2P is not available between these GPUs, so the case was not run here")};
  const std::string text =
      format_comparison(compare_runs(base, run, CompareOptions{}), "a", "b", CompareOptions{});
  const auto at = [&](const std::string& key) { return text.find("\n" + key); };
  EXPECT_LT(at("d_lost"), at("b_big_drop")) << text;
  EXPECT_LT(at("b_big_drop"), at("a_small_drop")) << text;
  EXPECT_LT(at("a_small_drop"), at("c_gain")) << text;
  std::size_t start = text.find("\nfigure ");
  for (std::size_t end = text.find('\n', start + 1);
       end != std::string::npos && start < at("c_gain");
       start = end, end = text.find('\n', end + 1))
    EXPECT_LE(end - start - 1, 100u) << text.substr(start + 1, end - start - 1);
}

// A comparison that judged no figure vouches for nothing: nothing in common (allowed missing or
// not), an empty side, or every figure below the judged size fails, saying why.
TEST(Compare, AComparisonThatJudgedNothingFails) {
  const auto verdict_text = [](const Comparison& c) {
    for (const auto& k : c.verdict.checks)
      if (k.rule == "compare" && k.subject == "figures") return k.message;
    return std::string();
  };
  doc::BenchDocument base, run, empty;
  base.bandwidth = {bw("sm_read", "gpu0", "gpu1", k512M, 50.0)};
  run.bandwidth = {bw("sm_write", "gpu0", "gpu1", k512M, 50.0)};
  CompareOptions allow;
  allow.allow_missing = "sm_read was dropped from the sweep";
  Comparison c = compare_runs(base, run, allow);
  EXPECT_EQ(c.verdict.outcome, doc::Outcome::kFail);
  EXPECT_EQ(verdict_text(c),
            "nothing was compared: none of the 2 figures is in both documents with a number to "
            "judge (1 new, 1 missing)");
  c = compare_runs(empty, run, CompareOptions{});
  EXPECT_EQ(c.verdict.outcome, doc::Outcome::kFail);
  EXPECT_EQ(verdict_text(c),
            "nothing was compared: none of the 1 figures is in both documents with a number to "
            "judge (1 new)");
  c = compare_runs(base, empty, allow);
  EXPECT_EQ(c.verdict.outcome, doc::Outcome::kFail);

  doc::BenchDocument small_base, small_run;
  small_base.bandwidth = {bw("h2d_ce", "host", "gpu0", 4096, 1.7)};
  small_run.bandwidth = {bw("h2d_ce", "host", "gpu0", 4096, 1.7)};
  c = compare_runs(small_base, small_run, CompareOptions{});
  EXPECT_EQ(c.verdict.outcome, doc::Outcome::kFail);
  EXPECT_NE(verdict_text(c).find("(1 not judged); figures under --min-bytes (64 MiB)"),
            std::string::npos)
      << verdict_text(c);

  // One figure judged on both sides is enough for the comparison to stand.
  small_base.bandwidth.push_back(bw("h2d_ce", "host", "gpu0", k512M, 50.0));
  small_run.bandwidth.push_back(bw("h2d_ce", "host", "gpu0", k512M, 50.0));
  c = compare_runs(small_base, small_run, CompareOptions{});
  EXPECT_EQ(verdict_text(c), "");
  EXPECT_NE(c.verdict.outcome, doc::Outcome::kFail);
}

// --min-bytes above every copy size leaves only latency judged: that does not vouch for the run.
TEST(Compare, LatencyAloneDoesNotPassAComparisonWhoseBandwidthWasNotJudged) {
  doc::BenchDocument base, run;
  base.latency = run.latency = {host_latency(1190)};
  base.bandwidth = run.bandwidth = {bw("h2d_ce", "host", "gpu0", k512M, 50.0)};
  CompareOptions above;
  above.min_bytes = 2 * k512M;
  Comparison c = compare_runs(base, run, above);
  EXPECT_EQ(c.verdict.outcome, doc::Outcome::kFail);
  bool said = false;
  for (const auto& k : c.verdict.checks)
    said = said || (k.subject == "bandwidth" &&
                    k.message.rfind("no bandwidth was compared: all 1 bandwidth figures", 0) == 0);
  EXPECT_TRUE(said);
  // At the default --min-bytes the same documents compare, latency and bandwidth alike.
  c = compare_runs(base, run, CompareOptions{});
  EXPECT_NE(c.verdict.outcome, doc::Outcome::kFail);
  // A document of latency alone has no bandwidth to miss.
  base.bandwidth.clear();
  run.bandwidth.clear();
  EXPECT_NE(compare_runs(base, run, above).verdict.outcome, doc::Outcome::kFail);
}

TEST(Compare, RealH200RunAgainstItselfIsUnchanged) {
  // results/h200-vm-2026-12-02/h200-bench.json is a real run on the project's H200.
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/results/h200-vm-2026-12-02/h200-bench.json";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const auto doc = doc::bench_document_from_json(nlohmann::json::parse(in), path);
  const Comparison c = compare_runs(doc, doc, CompareOptions{});
  EXPECT_EQ(c.figures.size(), doc.bandwidth.size() + doc.latency.size());
  EXPECT_EQ(c.regressions(), 0);
  for (const auto& f : c.figures)
    EXPECT_TRUE(f.change == doc::Change::kSame || f.change == doc::Change::kNotJudged) << f.key;
}

}  // namespace
}  // namespace p2p::report
