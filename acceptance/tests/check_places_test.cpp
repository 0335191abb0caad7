// Where each judged figure ran, read from the document's topology into its check, and the
// suspects those places give on the synthetic 8-GPU, two-socket host of synthetic_run.hpp.
#include "acceptance/check_places.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "acceptance/judge.hpp"
#include "acceptance/tests/synthetic_run.hpp"
#include "document/suspects.hpp"

namespace p2p::accept {
namespace {

using testing::gpu;
using testing::healthy_eight_gpu_run;

const doc::Check& check_of(const doc::RunVerdict& v, const std::string& rule,
                           const std::string& subject_start) {
  const auto it = std::find_if(v.checks.begin(), v.checks.end(), [&](const doc::Check& c) {
    return c.rule == rule && c.subject.rfind(subject_start, 0) == 0;
  });
  if (it == v.checks.end()) throw std::runtime_error("no " + rule + " check of " + subject_start);
  return *it;
}

doc::RunVerdict judged(const doc::BenchDocument& d) {
  return judge_document(d, AcceptancePolicy{}, RunFacts{}, "test");
}

TEST(CheckPlaces, PairsGetTheirPathAndSharedNodeHostLinksTheirGpusNode) {
  const doc::RunVerdict v = judged(healthy_eight_gpu_run());
  using Places = std::vector<std::string>;
  EXPECT_EQ(check_of(v, "link_ceiling", "ce_unidir_write gpu0->gpu1").places,
            (Places{"path NODE", "numa 0"}));
  EXPECT_EQ(check_of(v, "link_ceiling", "ce_unidir_write gpu0->gpu4").places, (Places{"path SYS"}))
      << "a pair across the sockets shares no NUMA node";
  EXPECT_EQ(check_of(v, "link_ceiling", "h2d_ce host->gpu5").places, (Places{"numa 1"}));
}

TEST(CheckPlaces, GpusBehindOneSwitchShareIt) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  for (int i : {0, 1}) {
    auto& path = d.topology->gpus[static_cast<std::size_t>(i)].pcie_path;
    path = {"0000:00:01.1", "0000:02:00.0", "0000:03:0" + std::to_string(i) + ".0"};
  }
  const doc::RunVerdict v = judged(d);
  const auto& places = check_of(v, "link_ceiling", "ce_unidir_write gpu0->gpu1").places;
  EXPECT_NE(std::find(places.begin(), places.end(), "switch 0000:02:00.0"), places.end());
  const auto& alone = check_of(v, "link_ceiling", "h2d_ce host->gpu2").places;
  EXPECT_EQ(std::count_if(alone.begin(), alone.end(),
                          [](const std::string& p) { return p.rfind("switch", 0) == 0; }),
            0)
      << "a GPU on a root port sits behind no switch";
}

// The link between the sockets at 40%: every pair across them fails, none within. No GPU stands
// out (each is in a quarter of the reasons); the SYS paths do.
TEST(CheckPlaces, ASlowLinkBetweenTheSocketsMakesTheSysPathsTheSuspect) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  const auto socket = [](const std::string& g) { return g >= gpu(4) ? 1 : 0; };
  for (auto& r : d.bandwidth) {
    if (r.src == "host" || r.dst == "host" || socket(r.src) == socket(r.dst)) continue;
    for (double* x : {&*r.median_gbps, &*r.min_gbps, &*r.max_gbps}) *x *= 0.4;
    for (double& x : r.samples_gbps) x *= 0.4;
    r.achieved_pct = *r.median_gbps / *r.ceiling_gbps * 100;
  }
  const doc::RunVerdict v = judged(d);
  ASSERT_FALSE(doc::passes(v.outcome));
  const auto s = doc::suspect_of(v);
  ASSERT_TRUE(s) << doc::format_verdict(v, "judge");
  EXPECT_EQ(s->kind, doc::SuspectKind::kPath);
  EXPECT_EQ(s->name, "SYS");
  EXPECT_EQ(s->gpus.size(), 8u);
}

// The worked example stays a GPU's: gpu5 before any place it shares with others.
TEST(CheckPlaces, TheWorkedExampleStillNamesGpu5) {
  doc::BenchDocument d = healthy_eight_gpu_run();
  for (auto& r : d.bandwidth) {
    if (r.src != gpu(5) && r.dst != gpu(5)) continue;
    for (double* x : {&*r.median_gbps, &*r.min_gbps, &*r.max_gbps}) *x *= 0.5;
    for (double& x : r.samples_gbps) x *= 0.5;
    r.achieved_pct = *r.median_gbps / *r.ceiling_gbps * 100;
  }
  const auto s = doc::suspect_of(judged(d));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, doc::SuspectKind::kGpu);
  EXPECT_EQ(s->name, "gpu5");
}

}  // namespace
}  // namespace p2p::accept
