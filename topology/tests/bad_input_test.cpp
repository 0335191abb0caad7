// Every kind of bad --input gets one InputError line that names the file and the problem.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/temp_dir.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/environment.hpp"
#include "topology/tests/test_support.hpp"

namespace fs = std::filesystem;

namespace p2p::topo {
namespace {

class BadInput : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& content) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  // The loader must throw InputError "<path>: <problem>" on a single line.
  void expect_input_error(const std::string& path, const std::string& problem) {
    try {
      load_topology(path);
      FAIL() << path << " was accepted";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(problem), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  p2p::TempDir tmp_{"p2p_topo_bad"};
  fs::path dir_{tmp_.path()};
};

TEST_F(BadInput, MissingFile) {
  expect_input_error((dir_ / "nope.xml").string(), "cannot read: No such file");
}

TEST_F(BadInput, EmptyFile) { expect_input_error(write("empty.xml", "  \n"), "empty file"); }

TEST_F(BadInput, NeitherXmlNorJson) {
  expect_input_error(
      write("notes.txt", "GPU0 X PHB\n"),
      "neither an hwloc XML topology, a p2pcheck snapshot (JSON) nor an nvidia-smi topo -m capture");
}

TEST_F(BadInput, XmlThatIsNotAnHwlocTopology) {
  expect_input_error(write("other.xml", "<?xml version=\"1.0\"?>\n<html><body/></html>\n"),
                     "no <topology> element");
}

TEST_F(BadInput, XmlWithoutAnNvidiaGpu) {
  // A real capture of a GPU-less machine (the CI VM: virtio devices only).
  expect_input_error(testing::fixture("no-gpu.xml"),
                     "no NVIDIA GPU (PCI vendor 0x10de, class 0x0300/0x0302)");
}

TEST_F(BadInput, XmlThatHwlocRejects) {
  // Well-formed and version 2.0, but no NUMA node: hwloc refuses to load it.
  expect_input_error(
      write("no-numa.xml",
            "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n"
            "<object type=\"Machine\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
            "gp_index=\"1\">\n<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" "
            "complete_cpuset=\"0x1\" gp_index=\"2\"/>\n</object>\n</topology>\n"),
      "hwloc cannot load this XML");
}

TEST_F(BadInput, HwlocThreeXml) {
  expect_input_error(
      write(
          "v3.xml",
          "<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n"
          "<object type=\"Machine\" os_index=\"0\" cpuset=\"0x1\" gp_index=\"1\"/>\n</topology>\n"),
      "hwloc XML version 3.0 is not supported");
  // hwloc 3's lstopo still writes the 2.x format on request: say so.
  expect_input_error(write("v3-again.xml",
                           "<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n"
                           "</topology>\n"),
                     "`lstopo --of v2xml` of hwloc 3");
}

TEST_F(BadInput, BrokenHwlocOneXmlIsHwlocsToReject) {
  // hwloc 1.x XML is read (real captures in fixtures/ are 1.x): a broken one fails in hwloc.
  expect_input_error(
      write("v1.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE topology SYSTEM \"hwloc.dtd\">\n<topology>\n"
            "<object type=\"Machine\" os_index=\"0\" cpuset=\"0x1\"/>\n</topology>\n"),
      "hwloc cannot load this XML");
}

TEST_F(BadInput, TruncatedXmlIsRejectedByHwloc) {
  std::ifstream in(testing::fixture("rtxpro6000-vm.xml"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  expect_input_error(write("cut.xml", text.substr(0, text.size() / 2)),
                     "hwloc cannot load this XML");
}

TEST_F(BadInput, MalformedJson) {
  expect_input_error(write("snap.json", "{\"schema_version\": 1,"), "not valid JSON");
}

TEST_F(BadInput, JsonThatIsNotASnapshot) {
  expect_input_error(write("policy.json", "{\"max_path\": \"NODE\"}"),
                     "not a p2pcheck topology snapshot");
}

TEST_F(BadInput, SnapshotOfAnotherSchemaVersion) {
  std::ifstream in(testing::golden("h200-vm.json"));
  nlohmann::json j = nlohmann::json::parse(in);
  j["schema_version"] = 2;
  expect_input_error(write("v2.json", j.dump()), "schema_version 2 is not supported");
}

TEST_F(BadInput, TwoGpusWithOneBusIdAreRefused) {
  std::ifstream in(testing::golden("rtxpro6000-lxc.json"));
  nlohmann::json j = nlohmann::json::parse(in);
  j["gpus"][1]["pci_bus_id"] = j["gpus"][0]["pci_bus_id"];
  expect_input_error(write("dup.json", j.dump()), "two GPUs with PCI bus id 0000:01:00.0");
}

// Inputs are read once, so a pipe (process substitution, a FIFO) works as a file does.
TEST_F(BadInput, ATopologyFromAPipeIsReadOnce) {
  const std::string fifo = (dir_ / "topo.fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string cmd = "cat '" + testing::fixture("pcie-switch.xml") + "' > '" + fifo + "' &";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto t = load_topology(fifo);
  EXPECT_EQ(t.gpus.size(), 6u);
}

TEST_F(BadInput, EnvironmentFactsWithAMisspeltKeyNameTheKey) {
  auto t = load_topology(testing::fixture("h200-vm.xml"));
  nlohmann::json facts = read_environment_facts("/nonexistent-root", false);
  facts["dockernv"] = true;
  const std::string path = write("env.json", facts.dump());
  try {
    apply_environment_facts_file(t, path);
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(
        what.rfind(path + ": not p2pcheck environment facts: unknown key 'dockernv' (known: ", 0),
        0u)
        << what;
  }
}

TEST_F(BadInput, MalformedEnvironmentFacts) {
  auto t = load_topology(testing::fixture("h200-vm.xml"));
  const std::string path = write("env.json", "{\"cpu_hypervisor_flag\": \"yes\"}");
  try {
    apply_environment_facts_file(t, path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": not p2pcheck environment facts", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace p2p::topo
