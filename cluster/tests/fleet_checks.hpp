// What every fleet test asks of a cluster document made from the four fixture hosts
// (cluster/tests/fixtures/hosts: node-a healthy, node-b stopped after its gate, node-c with
// another topology, node-d 20% slower on gpu0->gpu1): the odd host named with its pairs, the
// slow host flagged on that pair, the missing host reported with its last step, and nothing of
// the others lost. `merge` and `cluster` (MPI) must both pass it: they share one merge.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace p2p::testing {

// Figures in each fixture host's figures.json: 56 ce_unidir_write + 64 latency.
constexpr int kFixtureFigures = 120;

inline const nlohmann::json& host_entry(const nlohmann::json& doc, const std::string& name) {
  for (const auto& h : doc.at("hosts")) {
    if (h.at("host") == name) return h;
  }
  static const nlohmann::json none;
  ADD_FAILURE() << "no host " << name << " in the document";
  return none;
}

inline void expect_fleet_verdict(const nlohmann::json& doc) {
  ASSERT_EQ(doc.at("schema"), "p2pcheck.cluster.run");
  EXPECT_EQ(doc.at("version"), 2);
  EXPECT_EQ(doc.at("passed"), false);
  EXPECT_EQ(doc.at("exit_code"), 1);
  // The fleet's one verdict, its first reason the fleet gate's; the missing host errs.
  const auto& verdict = doc.at("verdict");
  EXPECT_EQ(verdict.at("headline"), "FAIL");
  ASSERT_FALSE(verdict.at("reasons").empty());
  EXPECT_EQ(verdict.at("reasons")[0].at("rule"), "fleet_gate");
  bool missing_errs = false;
  for (const auto& r : verdict.at("reasons"))
    missing_errs |= r.at("subject") == "node-b" && r.at("outcome") == "error";
  EXPECT_TRUE(missing_errs) << verdict.at("reasons").dump(1);
  ASSERT_EQ(doc.at("hosts").size(), 4u);
  EXPECT_TRUE(doc.at("nccl").is_null());

  const auto& odd = host_entry(doc, "node-c");
  EXPECT_EQ(odd.at("status"), "fail");
  EXPECT_EQ(odd.at("topology").at("match"), "differs");
  EXPECT_EQ(odd.at("topology").at("differences").size(), 28u);
  EXPECT_EQ(odd.at("topology").at("differences")[0], "GPU0-GPU1 NODE where the reference has PHB");

  const auto& slow = host_entry(doc, "node-d");
  EXPECT_EQ(slow.at("status"), "fail");
  EXPECT_EQ(slow.at("outliers_worse"), 1);
  bool flagged = false;
  for (const auto& f : doc.at("figures")) {
    for (const auto& o : f.at("outliers")) {
      EXPECT_EQ(o.at("host"), "node-d") << f.dump();
      EXPECT_EQ(f.at("case"), "ce_unidir_write");
      EXPECT_EQ(f.at("src"), "gpu0");
      EXPECT_EQ(f.at("dst"), "gpu1");
      EXPECT_NEAR(o.at("delta_pct").get<double>(), -20.0, 1.5);
      flagged = true;
    }
  }
  EXPECT_TRUE(flagged);

  const auto& missing = host_entry(doc, "node-b");
  EXPECT_EQ(missing.at("status"), "no_result");
  EXPECT_EQ(missing.at("last_step"), "gate");
  EXPECT_TRUE(missing.at("exit_code").is_null());

  for (const char* whole : {"node-a", "node-c", "node-d"}) {
    EXPECT_EQ(host_entry(doc, whole).at("figures_ok"), kFixtureFigures) << whole;
    EXPECT_EQ(host_entry(doc, whole).at("last_step"), "bench") << whole;
  }
  EXPECT_EQ(host_entry(doc, "node-a").at("status"), "pass");
  EXPECT_EQ(doc.at("figures").size(), static_cast<std::size_t>(kFixtureFigures));
  EXPECT_EQ(doc.at("hosts")[0].at("host"), "node-b");  // most figures lost first
}

}  // namespace p2p::testing
