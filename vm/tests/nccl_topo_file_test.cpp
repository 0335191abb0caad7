// The guest's NCCL topology file, from public host captures: the shape NCCL's own reader
// (src/graph/xml.cc) takes, and the host's tree in it.
#include "vm/nccl_topo_file.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "common/error.hpp"
#include "vm/tests/test_support.hpp"

namespace p2p::vm {
namespace {

const std::vector<std::string> kGuest = {"0000:01:00.0", "02:00.0",      "0000:03:00.0",
                                         "0000:04:00.0", "0000:05:00.0", "0000:06:00.0"};

TEST(NcclTopoFile, SwitchesBecomeOnePciEachAndGpusTheirGuestBusIds) {
  const auto host = topo::load_topology(testing::topology("pcie-switch.xml"));
  const std::string xml = nccl_topology_xml(host, {0, 1, 2, 3, 4, 5}, kGuest);
  // Two levels of switch above GPU0-GPU3 (a switch of switches), one above GPU4 and GPU5.
  EXPECT_NE(
      xml.find(
          "  <cpu numaid=\"0\" arch=\"x86_64\">\n"
          "    <pci busid=\"ffff:01:00.0\" class=\"0x060400\"> <!-- host 0000:01:00.0 -->\n"
          "      <pci busid=\"ffff:03:00.0\" class=\"0x060400\"> <!-- host 0000:03:00.0 -->\n"
          "        <pci busid=\"0000:01:00.0\" class=\"0x030200\"/> <!-- host 0000:05:00.0 -->\n"
          "        <pci busid=\"0000:02:00.0\" class=\"0x030200\"/> <!-- host 0000:06:00.0 -->\n"
          "      </pci>\n"),
      std::string::npos)
      << xml;
  EXPECT_NE(
      xml.find("    <pci busid=\"ffff:10:00.0\" class=\"0x060400\"> <!-- host 0000:10:00.0 -->\n"
               "      <pci busid=\"0000:05:00.0\" class=\"0x030200\"/>"),
      std::string::npos)
      << xml;
  // What NCCL's reader refuses: a prolog, a tab, a tag over two lines.
  EXPECT_EQ(xml.rfind("<system version=\"1\">\n", 0), 0u);
  EXPECT_EQ(xml.find('\t'), std::string::npos);
  std::istringstream lines(xml);
  for (std::string line; std::getline(lines, line);)
    EXPECT_EQ(std::count(line.begin(), line.end(), '<'), std::count(line.begin(), line.end(), '>'))
        << line;
}

TEST(NcclTopoFile, GpusOnRootPortsSitUnderTheirSocketsCpu) {
  const auto host = topo::load_topology(testing::topology("rtxpro6000-lxc.xml"));
  const std::string xml = nccl_topology_xml(host, {0, 4}, {"0000:01:00.0", "0000:02:00.0"});
  EXPECT_NE(xml.find("  <cpu numaid=\"0\" arch=\"x86_64\">\n    <pci busid=\"0000:01:00.0\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("  <cpu numaid=\"1\" arch=\"x86_64\">\n    <pci busid=\"0000:02:00.0\""),
            std::string::npos)
      << xml;
  const auto steps = nccl_topology_install(host, {{0, 4}}, "topo.xml");
  EXPECT_NE(steps.back().find("NCCL_P2P_LEVEL=SYS"), std::string::npos) << steps.back();
  EXPECT_EQ(nccl_topology_install(host, {{0, 1}}, "topo.xml").back().find("NCCL_P2P_LEVEL=PHB") !=
                std::string::npos,
            true);
}

TEST(NcclTopoFile, BadGuestBusIdsAndTopologiesWithoutATreeAreBadInput) {
  const auto host = topo::load_topology(testing::topology("pcie-switch.xml"));
  EXPECT_THROW(nccl_topology_xml(host, {0, 1}, {"0000:01:00.0"}), InputError);
  EXPECT_THROW(nccl_topology_xml(host, {0, 1}, {"0000:01:00.0", "1:0.0"}), InputError);
  EXPECT_THROW(nccl_topology_xml(host, {0, 1}, {"01:00.0", "0000:01:00.0"}), InputError);
  // nvidia-smi's eight-digit domain is a bus id too.
  EXPECT_NE(nccl_topology_xml(host, {0, 1}, {"00000000:01:00.0", " 02:00.0"}).find("0000:02:00.0"),
            std::string::npos);
  const auto capture = topo::load_topology(
      testing::source("import/tests/fixtures/topo-8x-pcie-pix-pxb-sys-numa-na.txt"));
  try {
    nccl_topology_xml(capture, {0, 1}, {"01:00.0", "02:00.0"});
    FAIL() << "an nvidia-smi capture has no tree";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no bus ids or PCIe tree"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace p2p::vm
