#include "topology/snapshot_json.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "topology/environment.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

using nlohmann::json;

TopologySnapshot sample() {
  auto t = testing::per_root_complex(8);
  t.hostname = "rtx-host";
  t.gpus[0].name = "NVIDIA RTX PRO 6000 Blackwell Server Edition";
  t.gpus[1].link_max = PcieLink{5, 16, 63.015};
  t.gpus[2].numa_node = -1;
  t.gpus[3].link_current = PcieLink{std::nullopt, std::nullopt, 31.508};
  t.nvlink_count[6][7] = t.nvlink_count[7][6] = 4;
  t.environment.kind = "container";
  t.environment.container = "lxc";
  t.environment.evidence = {"/proc/1/environ: container=lxc"};
  return t;
}

TEST(SnapshotJson, ContractKeys) {
  const json j = sample();
  EXPECT_EQ(j.at("schema_version"), 1);
  ASSERT_EQ(j.at("gpus").size(), 8u);
  EXPECT_EQ(j["gpus"][0].at("pci_bus_id"), "0000:01:00.0");
  EXPECT_EQ(j["gpus"][0].at("index"), 0);
  EXPECT_EQ(j["gpus"][0].at("device_id"), "0x2bb5");
  EXPECT_EQ(j["gpus"][0].at("vendor_id"), "0x10de");
  ASSERT_EQ(j.at("pcie_matrix").size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    ASSERT_EQ(j["pcie_matrix"][i].size(), 8u);
    EXPECT_EQ(j["pcie_matrix"][i][i], "X");
    EXPECT_EQ(j["matrix"][i][i], "X");
  }
  EXPECT_EQ(j["pcie_matrix"][0][1], "NODE");
  EXPECT_EQ(j["pcie_matrix"][0][4], "SYS");
  EXPECT_EQ(j["pcie_matrix"][6][7], "NODE");
  EXPECT_EQ(j["matrix"][6][7], "NV4");
  EXPECT_EQ(j.at("environment").at("kind"), "container");
}

TEST(SnapshotJson, UnknownValuesAreNullNotNA) {
  const json j = sample();
  EXPECT_TRUE(j["gpus"][2]["numa_node"].is_null());
  EXPECT_TRUE(j["gpus"][0]["link_max"]["gen"].is_null());
  EXPECT_TRUE(j["gpus"][3]["link_current"]["gen"].is_null());
  EXPECT_DOUBLE_EQ(j["gpus"][3]["link_current"]["gbps"].get<double>(), 31.508);
  EXPECT_EQ(j.dump().find("N/A"), std::string::npos);
}

TEST(SnapshotJson, RoundTrips) {
  const TopologySnapshot t = sample();
  const json j = t;
  const TopologySnapshot back = snapshot_from_json(j, "x.json");
  EXPECT_EQ(json(back), j);
  EXPECT_EQ(back.nvlink_count[7][6], 4);
  EXPECT_EQ(back.gpus[2].numa_node, -1);
  EXPECT_EQ(back.gpus[1].link_max.gen, 5);
  EXPECT_EQ(back.pcie_matrix, t.pcie_matrix);
  EXPECT_EQ(back.environment.container, "lxc");
}

void expect_rejected(const json& j, const std::string& fragment) {
  try {
    snapshot_from_json(j, "golden.json");
    FAIL() << "accepted: " << fragment;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("golden.json: ", 0), 0u) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(SnapshotJson, RejectsOtherSchemaVersions) {
  json j = sample();
  j["schema_version"] = 2;
  expect_rejected(j, "schema_version 2 is not supported");
}

TEST(SnapshotJson, RequiresEveryKey) {
  for (const char* key :
       {"schema_version", "gpus", "pcie_matrix", "matrix", "environment", "source", "hostname"}) {
    json j = sample();
    j.erase(key);
    expect_rejected(j, key);
  }
  json j = sample();
  j["gpus"][0].erase("pci_bus_id");
  expect_rejected(j, "pci_bus_id");
}

// A golden snapshot is edited by hand: a misspelt key is an error naming it, at any depth.
TEST(SnapshotJson, RefusesUnknownKeysNamingTheirPath) {
  json top = sample();
  top["hostnmae"] = "node-a";
  expect_rejected(top, "golden.json: not a p2pcheck topology snapshot: unknown key 'hostnmae'");
  json gpu = sample();
  gpu["gpus"][1]["numa"] = 0;
  expect_rejected(gpu, "gpus[1]: unknown key 'numa' (known: ");
  json link = sample();
  link["gpus"][0]["link_max"]["lanes"] = 16;
  expect_rejected(link, "gpus[0].link_max: unknown key 'lanes' (known: gen, width, gbps)");
  json env = sample();
  env["environment"]["kindd"] = "vm";
  expect_rejected(env, "environment: unknown key 'kindd'");
  json index = sample();
  index["gpus"][1]["index"] = 0;
  expect_rejected(index, "gpus[1].index: 0 where 1 was expected");
}

TEST(SnapshotJson, WrongTypesNameTheirPath) {
  json j = sample();
  j["gpus"][0]["link_current"]["gen"] = "4";
  expect_rejected(j, "gpus[0].link_current.gen: type must be number, but is string");
}

TEST(SnapshotJson, RejectsBadMatricesAndIds) {
  json ragged = sample();
  ragged["pcie_matrix"][3].erase(0);
  expect_rejected(ragged, "pcie_matrix");
  json bad_class = sample();
  bad_class["pcie_matrix"][0][1] = "FAST";
  expect_rejected(bad_class, "pcie_matrix[0][1]");
  json nv_in_pcie = sample();
  nv_in_pcie["pcie_matrix"][0][1] = "NV4";
  expect_rejected(nv_in_pcie, "pcie_matrix[0][1]");
  json self_off_diagonal = sample();
  self_off_diagonal["pcie_matrix"][0][1] = "X";
  expect_rejected(self_off_diagonal, "pcie_matrix[0][1]");
  json inconsistent = sample();
  inconsistent["matrix"][0][1] = "PHB";
  expect_rejected(inconsistent, "matrix[0][1]");
  json id = sample();
  id["gpus"][0]["device_id"] = "2bb5";
  expect_rejected(id, "device_id");
  json no_gpus = sample();
  no_gpus["gpus"] = json::array();
  no_gpus["pcie_matrix"] = json::array();
  no_gpus["matrix"] = json::array();
  expect_rejected(no_gpus, "`gpus` is empty");
  json wrong_type = sample();
  wrong_type["gpus"] = "eight";
  expect_rejected(wrong_type, "golden.json: not a p2pcheck topology snapshot");
}

}  // namespace
}  // namespace p2p::topo
