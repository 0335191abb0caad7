// vm plan on the field corpus (vm/tests/fixtures/field/, README there): real multi-GPU hosts from
// public threads, each with the ground truth of which pairs really do P2P. No host may get a
// clique holding a pair that cannot, from its topology alone or with its P2P capture (--p2p);
// with the capture, at least 80% of the pairs that do P2P must share a clique.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "common/file_io.hpp"
#include "common/testing/run_captured.hpp"

namespace {

namespace fs = std::filesystem;
using Pair = std::pair<int, int>;

std::set<Pair> pairs_of(const nlohmann::json& list) {
  std::set<Pair> out;
  for (const auto& p : list) out.insert(std::minmax(p.at(0).get<int>(), p.at(1).get<int>()));
  return out;
}

// The pairs the plan puts in one clique.
std::set<Pair> clique_pairs(const nlohmann::json& plan) {
  std::set<Pair> out;
  for (const auto& c : plan.at("cliques")) {
    const auto gpus = c.at("gpus").get<std::vector<int>>();
    for (std::size_t i = 0; i < gpus.size(); ++i)
      for (std::size_t k = i + 1; k < gpus.size(); ++k) out.insert(std::minmax(gpus[i], gpus[k]));
  }
  return out;
}

std::vector<fs::path> hosts() {
  std::vector<fs::path> out;
  const fs::path root = fs::path(P2P_SOURCE_DIR) / "vm/tests/fixtures/field";
  for (const auto& dir : {root, root / "holdout"})
    for (const auto& e : fs::directory_iterator(dir))
      if (fs::exists(e.path() / "truth.json")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(VmFieldCorpus, NoHostGetsAnUnsafeCliqueAndItsCaptureGroupsItsP2pPairs) {
  int planned = 0, refused = 0;
  std::size_t p2p_pairs = 0, grouped = 0;
  for (const auto& host : hosts()) {
    const auto truth = nlohmann::json::parse(p2p::read_text_file((host / "truth.json").string()));
    const std::set<Pair> bad = pairs_of(truth.at("no_p2p_pairs"));
    const std::set<Pair> good = pairs_of(truth.at("p2p_pairs"));
    const fs::path topo = fs::exists(host / "topo.txt") ? host / "topo.txt" : host / "topo.xml";
    const bool capture = fs::exists(host / "p2p.txt");
    for (const bool with_capture : {false, true}) {
      if (with_capture && !capture) continue;
      const auto r = p2p::testing::run_captured(
          std::string(P2PCHECK_EXE) + " vm plan --format json --topology " + topo.string() +
          (with_capture ? " --p2p " + (host / "p2p.txt").string() : ""));
      if (r.exit_code == 2) {  // a paste the readers refuse
        ++refused;
        EXPECT_NE(r.err.find(topo.string()), std::string::npos) << r.err;
        continue;
      }
      ++planned;
      const auto plan = nlohmann::json::parse(r.out);
      const std::set<Pair> joined = clique_pairs(plan);
      for (const auto& p : joined)
        EXPECT_EQ(bad.count(p), 0u)
            << host.filename() << (with_capture ? " with" : " without") << " its capture: GPU"
            << p.first << " and GPU" << p.second << " share a clique but do not do P2P";
      if (!plan.at("provisional_groups").empty()) EXPECT_EQ(r.exit_code, 1) << host.filename();
      if (with_capture) {
        p2p_pairs += good.size();
        grouped += static_cast<std::size_t>(std::count_if(
            good.begin(), good.end(), [&](const Pair& p) { return joined.count(p) != 0; }));
      }
    }
  }
  EXPECT_GE(hosts().size(), 12u);
  EXPECT_EQ(refused, 0);
  EXPECT_GE(planned, 25);
  ASSERT_GT(p2p_pairs, 0u);
  EXPECT_GE(grouped * 100, p2p_pairs * 80) << grouped << " of " << p2p_pairs;
}

}  // namespace
