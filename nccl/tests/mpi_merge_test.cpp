// Rank 0's merge of an MPI run: lines streamed by every process, reports from those that
// answered, and a process that never did.
#include "nccl/mpi_merge.hpp"

#include <gtest/gtest.h>

namespace p2p::nccl {
namespace {

ProcessSlot process(int p, const std::string& host, const std::string& host_id) {
  ProcessSlot s;
  s.process = p;
  s.hostname = host;
  s.host_id = host_id;
  s.devices = {0};
  return s;
}

RankCaseLine case_line(const StepCase& c, int process, std::vector<double> samples) {
  RankCaseLine l;
  l.case_name = c.name;
  l.index = c.index;
  l.rank = process;
  l.sample_us = std::move(samples);
  l.wrong_elements = 0;
  return l;
}

// A send from `src` to `dst` as NCCL logs it on the sending host.
std::string net_line(const std::string& host, int src, int dst) {
  return host + ":100:101 [0] NCCL INFO Channel 00/0 : " + std::to_string(src) + "[0] -> " +
         std::to_string(dst) + "[0] [send] via NET/Socket/0\n";
}

class MpiMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    // Three processes on one machine, three NCCL hosts.
    layout_ =
        lay_out_ranks({process(0, "vm", "h0"), process(1, "vm", "h1"), process(2, "vm", "h2")});
    const auto plan = plan_cases({Collective::kAllReduce}, {DataType::kFloat32}, {1024, 4096}, 3);
    for (const auto& s : one_case_per_step(plan)) cases_.push_back(s.cases[0]);
    host_steps_ =
        host_pair_steps(layout_, DataType::kFloat32, 1 << 20, static_cast<int>(cases_.size()));
    for (const auto& step : host_steps_) {
      for (const auto& c : step) cases_.push_back(c.step_case);
    }
  }

  // Everything process `p` streamed: ready, then its line for every case it took part in up
  // to (not including) index `stop`, then (if `done`) its end line.
  std::string lines_of(int p, int stop, bool done) const {
    std::string out = to_line(RankReadyLine{p, 500 + p, "cudaMalloc"});
    for (const StepCase& c : cases_) {
      if (c.index >= stop) break;
      const auto who = participants(c.planned.op, layout_.nranks);
      if (std::find(who.begin(), who.end(), p) == who.end()) continue;
      out += to_line(case_line(c, p, {10.0 + p, 20.0 + p, 30.0 + p}));
    }
    if (done) out += to_line(RankEndLine{p, doc::RankEnd::kDone, ""});
    return out;
  }

  ProcessReport report_of(int p) const {
    ProcessReport r;
    r.process = p;
    r.pid = 500 + p;
    doc::DeviceRecord d;
    d.rank = p;
    d.cuda_device = 0;
    d.pci_bus_id = "0000:00:05.0";
    d.name = "NVIDIA H200";
    r.devices = {d};
    for (int q = 0; q < 3; ++q) {
      if (q != p) r.nccl_log += net_line("vm", p, q);
    }
    return r;
  }

  RankLayout layout_;
  std::vector<StepCase> cases_;
  std::vector<std::vector<HostPairCase>> host_steps_;
};

TEST_F(MpiMerge, EveryProcessAnsweredGivesEveryCaseHostsAndHostPairs) {
  const int all = static_cast<int>(cases_.size());
  const ClusterMerge m =
      merge_cluster(layout_, cases_, host_steps_,
                    {lines_of(0, all, true), lines_of(1, all, true), lines_of(2, all, true)},
                    {report_of(0), report_of(1), report_of(2)}, 120.0, "--mpi");
  ASSERT_EQ(static_cast<int>(m.merged.cases.size()), all);
  for (const auto& c : m.merged.cases) EXPECT_STREQ(doc::to_string(c.status), "ok") << c.detail;
  // All-reduce: per sample the slowest process (rank 2: +2 us).
  EXPECT_EQ(m.merged.cases[0].sample_us, (std::vector<double>{12.0, 22.0, 32.0}));
  EXPECT_TRUE(m.merged.warnings.empty());
  for (const auto& e : m.merged.ends) EXPECT_STREQ(doc::to_string(e.ended), "done");

  ASSERT_EQ(m.devices.size(), 3u);
  EXPECT_EQ(m.devices[2].name, "NVIDIA H200");
  EXPECT_EQ(m.devices[2].hostname, "vm");
  EXPECT_EQ(m.cluster.hosts, (std::vector<std::string>{"h0", "h1", "h2"}));
  EXPECT_EQ(m.cluster.launch, "--mpi");
  ASSERT_EQ(m.cluster.ranks.size(), 3u);
  EXPECT_EQ(m.cluster.ranks[1].host, 1);
  EXPECT_EQ(m.cluster.host_transport[0][1].transports, (std::vector<std::string>{"NET/Socket"}));
  EXPECT_TRUE(m.cluster.host_transport[1][1].transports.empty());

  // Three hosts: every ordered pair once, with a bandwidth.
  ASSERT_EQ(m.cluster.host_pairs.size(), 6u);
  for (const auto& p : m.cluster.host_pairs) {
    EXPECT_STREQ(doc::to_string(p.status), "ok");
    ASSERT_TRUE(p.algbw_gbps.has_value());
    EXPECT_GT(*p.algbw_gbps, 0.0);
    EXPECT_EQ(p.src_rank, p.src_host);  // one rank per host here
  }
}

TEST_F(MpiMerge, AProcessThatNeverAnsweredIsNoResultWithItsLastCaseAndTheOthersAreKept) {
  const int all = static_cast<int>(cases_.size());
  // Process 2 streamed its lines for the first two cases, then went silent.
  const ClusterMerge m = merge_cluster(
      layout_, cases_, host_steps_,
      {lines_of(0, 2, false) + to_line(RankEndLine{0, doc::RankEnd::kHang, "barrier"}),
       lines_of(1, 2, false) + to_line(RankEndLine{1, doc::RankEnd::kHang, "barrier"}),
       lines_of(2, 2, false)},
      {report_of(0), report_of(1), std::nullopt}, 60.0, "OMPI_COMM_WORLD_SIZE=3");
  ASSERT_EQ(m.merged.cases.size(), 2u);  // nothing after the stop is invented
  EXPECT_STREQ(doc::to_string(m.merged.cases[1].status), "ok");
  ASSERT_EQ(m.merged.ends.size(), 3u);
  EXPECT_STREQ(doc::to_string(m.merged.ends[2].ended), "no_result");
  EXPECT_EQ(m.merged.ends[2].pid, 502);  // from its ready line
  EXPECT_EQ(m.merged.ends[2].last_case, cases_[1].name);
  EXPECT_NE(m.merged.ends[2].detail.find("within 60 s on vm"), std::string::npos)
      << m.merged.ends[2].detail;
  EXPECT_STREQ(doc::to_string(m.merged.ends[0].ended), "hang");
  bool named = false;
  for (const auto& w : m.merged.warnings) {
    named = named || (w.find("rank 2") != std::string::npos &&
                      w.find("sent no result") != std::string::npos &&
                      w.find(cases_[1].name) != std::string::npos);
  }
  EXPECT_TRUE(named);
  // Its rank is still described from the layout, its log is missing from the transports.
  ASSERT_EQ(m.devices.size(), 3u);
  EXPECT_EQ(m.devices[2].host_id, "h2");
  EXPECT_TRUE(m.devices[2].name.empty());
  EXPECT_TRUE(m.cluster.host_transport[2][0].transports.empty());
  EXPECT_EQ(m.cluster.host_transport[0][2].transports, (std::vector<std::string>{"NET/Socket"}));
  EXPECT_TRUE(m.cluster.host_pairs.empty());
  (void)all;
}

TEST_F(MpiMerge, ACaseAProcessNeverReportedIsAnErrorNamingIt) {
  const int all = static_cast<int>(cases_.size());
  // Processes 0 and 1 reported the third case; process 2 stopped before it and never answered.
  const ClusterMerge m =
      merge_cluster(layout_, cases_, host_steps_,
                    {lines_of(0, 3, false), lines_of(1, 3, false), lines_of(2, 2, false)},
                    {report_of(0), report_of(1), std::nullopt}, 60.0, "--mpi");
  ASSERT_EQ(m.merged.cases.size(), 3u);
  EXPECT_STREQ(doc::to_string(m.merged.cases[2].status), "error");
  EXPECT_NE(m.merged.cases[2].detail.find("rank 2 (pid 502) sent no result"), std::string::npos)
      << m.merged.cases[2].detail;
  EXPECT_FALSE(m.merged.cases[2].time_us.has_value());
  (void)all;
}

TEST(ProcessReport, RoundTrips) {
  ProcessReport r;
  r.process = 3;
  r.pid = 77;
  r.exit_code = 5;
  r.nccl_log = "vm:1:1 [0] NCCL INFO x\n";
  doc::DeviceRecord d;
  d.rank = 6;
  d.hostname = "node-b";
  r.devices = {d};
  const ProcessReport back = nlohmann::json(r).get<ProcessReport>();
  EXPECT_EQ(back.process, 3);
  EXPECT_EQ(back.exit_code, 5);
  EXPECT_EQ(back.nccl_log, r.nccl_log);
  ASSERT_EQ(back.devices.size(), 1u);
  EXPECT_EQ(back.devices[0].rank, 6);
  EXPECT_EQ(back.devices[0].hostname, "node-b");
}

}  // namespace
}  // namespace p2p::nccl
