#include "gpus/device_inventory.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "common/temp_dir.hpp"

namespace {

using namespace p2p::gpus;

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(Inventory, NormalisesCudaBusIdsToSysfsForm) {
  EXPECT_EQ(normalize_pci_bus_id("00000000:1A:00.0"), "0000:1a:00.0");
  EXPECT_EQ(normalize_pci_bus_id("0000:00:06.0"), "0000:00:06.0");
  EXPECT_EQ(normalize_pci_bus_id("0001:C1:00.0"), "0001:c1:00.0");
}

TEST(Inventory, ReadsLinkNumaAndCpusFromSysfs) {
  const p2p::TempDir tmp("p2p_sysfs");
  const std::string& root = tmp.path();
  const std::string dev = root + "/bus/pci/devices/0000:00:06.0";
  ASSERT_EQ(system(("mkdir -p '" + dev + "'").c_str()), 0);
  write(dev + "/current_link_speed", "32.0 GT/s PCIe\n");
  write(dev + "/current_link_width", "16\n");
  write(dev + "/max_link_speed", "32.0 GT/s PCIe\n");
  write(dev + "/max_link_width", "16\n");
  write(dev + "/numa_node", "0\n");
  write(dev + "/local_cpulist", "0-15\n");
  p2p::topo::Gpu g;
  g.pci_bus_id = "0000:00:06.0";
  read_sysfs_pci_facts(g, root);
  EXPECT_EQ(g.link_current.gen, 5);
  EXPECT_EQ(g.link_current.width, 16);
  EXPECT_EQ(g.link_max.gen, 5);
  EXPECT_EQ(g.numa_node, 0);
  EXPECT_EQ(g.cpuset, "0-15");

  // A device whose files are missing or unreadable keeps its unknowns.
  p2p::topo::Gpu other;
  other.pci_bus_id = "0000:99:00.0";
  read_sysfs_pci_facts(other, root);
  EXPECT_FALSE(other.link_current.gen);
  EXPECT_EQ(other.numa_node, -1);
  EXPECT_EQ(other.cpuset, "");

  write(dev + "/current_link_speed", "Unknown\n");
  write(dev + "/local_cpulist", "garbage\n");
  p2p::topo::Gpu odd;
  odd.pci_bus_id = "0000:00:06.0";
  read_sysfs_pci_facts(odd, root);
  EXPECT_FALSE(odd.link_current.gen);
  EXPECT_EQ(odd.cpuset, "");
}

}  // namespace
