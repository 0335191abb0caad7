#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "doctor/facts.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using p2p::InputError;
using p2p::doctor::Facts;
using p2p::doctor::facts_from_json;
using p2p::doctor::facts_to_json;
using p2p::doctor::ProbeStatus;
using p2p::doctor::Seen;
using p2p::doctor::test::contains;
using p2p::doctor::test::fixture;
using p2p::doctor::test::fixture_dir;

namespace {

json fixture_json(const std::string& name) { return p2p::read_json_file(fixture(name)); }

std::string error_of(const json& j) {
  try {
    facts_from_json(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The keys version 1 gained later, dropped from `written` where `original` predates them.
json without_later_keys(json written, const json& original) {
  for (const char* key : {"fabric_manager", "peer_copy"})
    if (!original.contains(key)) written.erase(key);
  if (!original.at("cgroup").contains("devices_list_path"))
    written["cgroup"].erase("devices_list_path");
  if (!original.at("kernel").contains("release")) written["kernel"].erase("release");
  if (!original.at("kernel").contains("module_files")) written["kernel"].erase("module_files");
  auto& devices = written["nvml"]["devices"];
  const auto& old_devices = original.at("nvml").at("devices");
  for (std::size_t i = 0; i < devices.size() && i < old_devices.size(); ++i) {
    if (!old_devices[i].contains("uuid")) devices[i].erase("uuid");
    if (!old_devices[i].contains("health")) devices[i].erase("health");
  }
  return written;
}

TEST(FactsJson, EveryFixtureRoundTripsUnchanged) {
  int files = 0;
  std::vector<fs::path> paths;
  for (const auto& dir : {fs::path(fixture_dir()), fs::path(fixture_dir()) / "holdout"})
    for (const auto& entry : fs::directory_iterator(dir)) paths.push_back(entry.path());
  for (const auto& path : paths) {
    const std::string name = path.filename().string();
    // Expectation files (*.expect.json, holdout/expect.json) are not facts.
    if (path.extension() != ".json" || name.find("expect.json") != std::string::npos) continue;
    const fs::directory_entry entry(path);
    ++files;
    const json original = p2p::read_json_file(entry.path().string());
    const Facts f = facts_from_json(original);
    EXPECT_EQ(without_later_keys(facts_to_json(f), original), original) << entry.path();
  }
  EXPECT_GE(files, 15);
}

TEST(FactsJson, ADocumentFromBeforeTheLaterKeysReadsThemAsUnknown) {
  // h200-vm-real.json and ci-no-driver.json were saved before uuid, devices_list_path,
  // fabric_manager and peer_copy existed.
  const json original = fixture_json("h200-vm-real.json");
  ASSERT_FALSE(original.contains("peer_copy"));
  const Facts f = facts_from_json(original);
  EXPECT_EQ(f.peer_copy.status, ProbeStatus::kNotRun);
  EXPECT_TRUE(contains(f.peer_copy.detail, "recorded before the peer-copy check existed"));
  EXPECT_EQ(f.fabric_manager.log_lines.seen, Seen::kNotChecked);
  EXPECT_FALSE(f.cgroup.devices_list_path.has_value());
  for (const auto& d : f.nvml.devices) EXPECT_FALSE(d.uuid.has_value());
  EXPECT_EQ(f.kernel.release.seen, Seen::kNotChecked);
  EXPECT_EQ(f.kernel.module_files.seen, Seen::kNotChecked);
  // Written again, it carries them, and that reads back the same.
  const json again = facts_to_json(f);
  EXPECT_TRUE(again.contains("peer_copy"));
  EXPECT_EQ(facts_to_json(facts_from_json(again)), again);
}

TEST(FactsJson, ReadsTheKernelReleaseAndItsNvidiaModules) {
  json doc = fixture_json("bare-metal-healthy.json");
  doc["kernel"]["release"] = {{"state", "present"},
                              {"value", "5.15.133.1-microsoft-standard-WSL2"}};
  const Facts f = facts_from_json(doc);
  ASSERT_TRUE(f.kernel.release.present());
  EXPECT_EQ(f.kernel.release.value, "5.15.133.1-microsoft-standard-WSL2");
  EXPECT_EQ(facts_to_json(f)["kernel"]["release"], doc["kernel"]["release"]);
  doc["kernel"]["module_files"] = {{"state", "present"}, {"value", json::array()}};
  const Facts none_built = facts_from_json(doc);
  ASSERT_TRUE(none_built.kernel.module_files.present());
  EXPECT_TRUE(none_built.kernel.module_files.value.empty());
  json bad = doc;
  bad["kernel"]["release"] = {{"state", "present"}, {"value", 5}};
  try {
    facts_from_json(bad);
    ADD_FAILURE() << "a number as the release was accepted";
  } catch (const p2p::InputError& e) {
    EXPECT_TRUE(contains(e.what(), "kernel.release")) << e.what();
  }
}

TEST(FactsJson, KeepsTheThreeStatesOfAProbeApart) {
  const Facts f = p2p::doctor::load_facts_file(fixture("lxc-firmware-not-visible.json"));
  EXPECT_EQ(f.kernel.log_lines.seen, Seen::kUnreadable);
  EXPECT_EQ(f.kernel.log_lines.error, "EPERM");
  EXPECT_EQ(f.firmware.gsp_files.seen, Seen::kAbsent);
  EXPECT_EQ(f.gpu_information.seen, Seen::kUnreadable);
  EXPECT_TRUE(f.kernel.modules.present());
  const Facts h200 = p2p::doctor::load_facts_file(fixture("h200-vm-real.json"));
  EXPECT_EQ(h200.kernel.char_majors.seen, Seen::kNotChecked);
  EXPECT_TRUE(h200.kernel.char_majors.unknown());
  EXPECT_FALSE(h200.pci.value.at(0).numa_node.has_value()) << "numa_node -1 is stored as null";
}

TEST(FactsJson, RefusesAnotherVersionOrSchema) {
  json j = fixture_json("bare-metal-healthy.json");
  j["version"] = 2;
  EXPECT_TRUE(contains(error_of(j), "facts version 2 is not supported")) << error_of(j);
  j = fixture_json("bare-metal-healthy.json");
  j["schema"] = "p2pcheck.topology";
  EXPECT_TRUE(contains(error_of(j), "not a doctor facts file")) << error_of(j);
}

// The documented ceiling of a log in a facts file: 200,000 lines read (and judged, see
// Story.AKernelLogAtItsCeilingIsJudgedInOnePass); one more is refused naming the key.
TEST(FactsJson, ALogPastItsCeilingIsRefusedNamingTheKey) {
  json j = fixture_json("bare-metal-healthy.json");
  j["kernel"]["log_lines"]["value"] = json(std::vector<std::string>(200000, "NVRM: x"));
  EXPECT_EQ(facts_from_json(j).kernel.log_lines.value.size(), 200000u);
  j["kernel"]["log_lines"]["value"].push_back("NVRM: one more");
  EXPECT_EQ(error_of(j),
            "kernel.log_lines: 200001 lines, more than the 200,000 a facts file may hold");
  j = fixture_json("hgx-fabric-manager-version.json");
  j["fabric_manager"]["log_lines"]["value"] = json(std::vector<std::string>(200001, "x"));
  EXPECT_EQ(error_of(j),
            "fabric_manager.log_lines: 200001 lines, more than the 200,000 a facts file may hold");
}

TEST(FactsJson, AMissingKeyIsNamedWithItsPath) {
  json j = fixture_json("bare-metal-healthy.json");
  j["kernel"].erase("params");
  EXPECT_EQ(error_of(j), "kernel: key 'params' not found");
  j = fixture_json("bare-metal-healthy.json");
  j["cuda"]["devices"][1].erase("name");
  EXPECT_EQ(error_of(j), "cuda.devices[1]: key 'name' not found");
}

TEST(FactsJson, UnknownKeysAndWrongTypesAreRefused) {
  json j = fixture_json("bare-metal-healthy.json");
  j["kernel"]["param"] = json::object();
  const std::string unknown = error_of(j);
  EXPECT_EQ(unknown.rfind("kernel: unknown key 'param' (known: ", 0), 0u) << unknown;
  EXPECT_TRUE(contains(unknown, "params")) << unknown;  // the key it may have meant
  j = fixture_json("bare-metal-healthy.json");
  j["pci"]["value"][0]["device_id"] = "0x2331";
  EXPECT_TRUE(contains(error_of(j), "pci.value[0].device_id: type must be number")) << error_of(j);
  j = fixture_json("bare-metal-healthy.json");
  j["iommu"]["units"] = {{"state", "maybe"}};
  EXPECT_TRUE(contains(error_of(j), "iommu.units.state: unknown state 'maybe'")) << error_of(j);
  j = fixture_json("bare-metal-healthy.json");
  j["iommu"]["units"] = {{"state", "unreadable"}};
  EXPECT_EQ(error_of(j), "iommu.units: key 'error' not found");
  j = fixture_json("bare-metal-healthy.json");
  j["cuda"]["status"] = "fine";
  EXPECT_EQ(error_of(j), "cuda.status: unknown probe status 'fine'");
}

TEST(FactsJson, NullIsUnknownButTheKeyIsStillRequired) {
  json j = fixture_json("bare-metal-healthy.json");
  j["cuda"]["driver_version"] = nullptr;
  const Facts f = facts_from_json(j);
  EXPECT_FALSE(f.cuda.driver_version.has_value());
  j["cuda"].erase("driver_version");
  EXPECT_EQ(error_of(j), "cuda: key 'driver_version' not found");
}

TEST(FactsJson, LoadingAFileNamesTheFile) {
  const p2p::TempDir tmp("p2p_facts");
  const fs::path dir = tmp.path();
  const std::string bad = (dir / "broken.json").string();
  std::ofstream(bad) << "{ \"schema\": ";
  try {
    p2p::doctor::load_facts_file(bad);
    FAIL() << "malformed JSON was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(bad + ": not valid JSON", 0), 0u) << e.what();
  }
  const std::string old = (dir / "old.json").string();
  json j = fixture_json("vfio-vm.json");
  j["version"] = 0;
  std::ofstream(old) << j.dump();
  try {
    p2p::doctor::load_facts_file(old);
    FAIL() << "version 0 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              old + ": facts version 0 is not supported (this p2pcheck reads version 1)");
  }
  const std::string misspelt = (dir / "misspelt.json").string();
  j = fixture_json("vfio-vm.json");
  j["iommu"]["unit"] = j["iommu"]["units"];
  std::ofstream(misspelt) << j.dump();
  try {
    p2p::doctor::load_facts_file(misspelt);
    FAIL() << "an unknown key was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              misspelt + ": iommu: unknown key 'unit' (known: units, group_types)");
  }
}

}  // namespace
