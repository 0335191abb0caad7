// hwloc reads untrusted XML in a forked child: a crash or a hang inside hwloc is one InputError
// line naming the file, and what the child loads comes back exactly as loading in-process would.
#include "topology/discovery/xml_isolation.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <string>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/snapshot_json.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

// The message of the InputError `load` throws ("" and a test failure if it throws none).
template <class Load>
std::string input_error(Load load) {
  try {
    load();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

const std::string kXml = "<topology version=\"2.0\"></topology>";

// An hwloc XML whose objects nest `levels` deep, each one valid: hwloc 2.9 recurses once per
// level and dies of a stack overflow at about 20,000 (`lstopo` crashes on it too).
std::string deeply_nested_xml(int levels) {
  const std::string sets =
      "cpuset=\"0x1\" complete_cpuset=\"0x1\" allowed_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" "
      "allowed_nodeset=\"0x1\"";
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<topology version=\"2.0\">\n";
  xml += "<object type=\"Machine\" os_index=\"0\" " + sets + ">\n";
  for (int i = 0; i < levels; ++i) xml += "<object type=\"Group\" " + sets + ">";
  xml += "<object type=\"PU\" os_index=\"0\" " + sets + "/>";
  for (int i = 0; i < levels; ++i) xml += "</object>";
  return xml + "\n</object>\n</topology>\n";
}

TEST(XmlIsolation, ACrashInsideTheLoaderIsBadInputNamingTheFile) {
  const std::string what = input_error([] {
    load_hwloc_xml_isolated(
        kXml, "ticket.xml",
        [](const std::string&, const std::string&) -> TopologySnapshot {
          std::raise(SIGSEGV);
          return {};
        },
        10'000);
  });
  EXPECT_EQ(what, "ticket.xml: hwloc crashed reading this XML (SIGSEGV)");
}

TEST(XmlIsolation, AnAbortInsideTheLoaderIsBadInputToo) {
  const std::string what = input_error([] {
    load_hwloc_xml_isolated(
        kXml, "ticket.xml",
        [](const std::string&, const std::string&) -> TopologySnapshot { std::abort(); }, 10'000);
  });
  EXPECT_EQ(what, "ticket.xml: hwloc crashed reading this XML (SIGABRT)");
}

TEST(XmlIsolation, AHangInsideTheLoaderEndsAtTheDeadline) {
  const std::string what = input_error([] {
    load_hwloc_xml_isolated(
        kXml, "ticket.xml",
        [](const std::string&, const std::string&) -> TopologySnapshot {
          for (;;) ::pause();
        },
        300);
  });
  EXPECT_EQ(what.rfind("ticket.xml: hwloc did not finish reading this XML (", 0), 0u) << what;
}

TEST(XmlIsolation, TheLoadersInputErrorPassesThrough) {
  const std::string what = input_error([] {
    load_hwloc_xml_isolated(
        kXml, "ticket.xml",
        [](const std::string&, const std::string&) -> TopologySnapshot {
          throw InputError("ticket.xml: no NVIDIA GPU");
        },
        10'000);
  });
  EXPECT_EQ(what, "ticket.xml: no NVIDIA GPU");
}

TEST(XmlIsolation, AnotherErrorInTheChildIsNotBadInput) {
  EXPECT_THROW(load_hwloc_xml_isolated(
                   kXml, "ticket.xml",
                   [](const std::string&, const std::string&) -> TopologySnapshot {
                     throw std::runtime_error("out of memory");
                   },
                   10'000),
               std::runtime_error);
}

// Every fixture comes back from the child exactly as it loads in this process.
TEST(XmlIsolation, TheChildsSnapshotIsTheInProcessOne) {
  for (const char* name : {"h200-vm.xml", "hgx-nvswitch.xml", "pcie-switch.xml",
                           "rtxpro6000-vm.xml", "rtxpro6000-lxc.xml"}) {
    const std::string path = testing::fixture(name);
    const std::string text = read_text_file(path);
    EXPECT_EQ(snapshot_to_json_text(snapshot_from_hwloc_xml_text(text, path)),
              snapshot_to_json_text(snapshot_from_hwloc_xml_in_process(text, path)))
        << name;
  }
}

// The crash this isolation exists for: hwloc 2.9 overflows its stack on deep nesting.
TEST(XmlIsolation, DeeplyNestedXmlIsBadInputNotACrash) {
  const std::string what =
      input_error([] { load_topology_text(deeply_nested_xml(20'000), "deep.xml"); });
  EXPECT_EQ(what.rfind("deep.xml: hwloc ", 0), 0u) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

// A malformed 10-line XML (a NUMA node without complete_nodeset) that makes hwloc 2.9 dereference
// a null bitmap inside hwloc_topology_load; lstopo crashes on it too.
TEST(XmlIsolation, MalformedXmlThatCrashesHwlocIsBadInputNotACrash) {
  const std::string path =
      std::string(P2P_SOURCE_DIR) + "/topology/tests/hostile/numa-without-complete-nodeset.xml";
  const std::string what = input_error([&] { load_topology(path); });
  EXPECT_EQ(what.rfind(path + ": hwloc ", 0), 0u) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

}  // namespace
}  // namespace p2p::topo
