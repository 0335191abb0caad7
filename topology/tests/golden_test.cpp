// Golden snapshots: each XML fixture (with its environment facts where it has them) must give
// exactly the JSON in topology/tests/golden/. P2P_UPDATE_GOLDEN=1 rewrites them instead, so a
// change in discovery or classification shows up as a reviewable diff of those files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "common/file_io.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/snapshot_json.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

struct GoldenCase {
  const char* xml;
  const char* environment_facts;  // "" where the fixture has none
  const char* golden;
};

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, SnapshotMatches) {
  const GoldenCase& c = GetParam();
  TopologySnapshot t = snapshot_from_hwloc_xml(testing::fixture(c.xml));
  if (*c.environment_facts) apply_environment_facts_file(t, testing::fixture(c.environment_facts));
  t.source =
      std::string("topology/tests/fixtures/") + c.xml;  // not the absolute path of this checkout
  const std::string actual = snapshot_to_json_text(t);
  const std::string path = testing::golden(c.golden);
  const char* update = std::getenv("P2P_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    write_text_file_atomically(path, actual);
    std::cout << "updated " << path << "\n";
    return;
  }
  const auto expected = try_read_text_file(path);
  ASSERT_TRUE(expected) << path << " is missing: run with P2P_UPDATE_GOLDEN=1 and review it";
  // Compare parsed JSON for a readable failure, then the text for formatting drift.
  EXPECT_EQ(nlohmann::json::parse(actual), nlohmann::json::parse(*expected))
      << "regenerate with P2P_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, *expected);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, Golden,
    ::testing::Values(
        GoldenCase{"rtxpro6000-vm.xml", "rtxpro6000-vm.environment.json", "rtxpro6000-vm.json"},
        GoldenCase{"rtxpro6000-lxc.xml", "rtxpro6000-lxc.environment.json", "rtxpro6000-lxc.json"},
        GoldenCase{"pcie-switch.xml", "", "pcie-switch.json"},
        GoldenCase{"hgx-nvswitch.xml", "", "hgx-nvswitch.json"},
        GoldenCase{"h200-vm.xml", "h200-vm.environment.json", "h200-vm.json"},
        GoldenCase{"dgx2-v100.xml", "", "dgx2-v100.json"},
        GoldenCase{"power8-p100-nvlink.xml", "", "power8-p100-nvlink.json"},
        GoldenCase{"x58-m2070-no-osdev.xml", "", "x58-m2070-no-osdev.json"},
        GoldenCase{"k80-two-sockets-hwloc1.xml", "", "k80-two-sockets-hwloc1.json"},
        GoldenCase{"juwels-booster-a100.xml", "", "juwels-booster-a100.json"},
        GoldenCase{"juwels-cluster-v100-hwloc1.xml", "", "juwels-cluster-v100-hwloc1.json"},
        GoldenCase{"juropa3-k20x-hwloc1.xml", "", "juropa3-k20x-hwloc1.json"}),
    [](const ::testing::TestParamInfo<GoldenCase>& info) {
      std::string name = info.param.golden;
      name = name.substr(0, name.find('.'));
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

}  // namespace
}  // namespace p2p::topo
