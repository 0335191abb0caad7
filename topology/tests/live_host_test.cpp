// Live discovery on whatever machine runs the tests, checked against sysfs read independently,
// and the sysfs link reader against a fixture tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/temp_dir.hpp"
#include "topology/discovery/discovery.hpp"
#include "topology/discovery/sysfs_link.hpp"

namespace fs = std::filesystem;

namespace p2p::topo {
namespace {

// NVIDIA display/3D controllers as sysfs lists them, without hwloc.
std::vector<std::string> nvidia_gpus_in_sysfs() {
  std::vector<std::string> ids;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/sys/bus/pci/devices", ec)) {
    const std::string dir = entry.path().string();
    const auto vendor = try_read_text_file(dir + "/vendor").value_or("");
    const auto cls = try_read_text_file(dir + "/class").value_or("");
    if (vendor.rfind("0x10de", 0) == 0 &&
        (cls.rfind("0x0300", 0) == 0 || cls.rfind("0x0302", 0) == 0))
      ids.push_back(entry.path().filename().string());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(LiveHost, FindsTheGpusSysfsListsOrSaysThereAreNone) {
  const auto expected = nvidia_gpus_in_sysfs();
  if (expected.empty()) {
    EXPECT_THROW(snapshot_from_this_host(), NoGpuError);
    return;
  }
  const auto t = snapshot_from_this_host();
  std::vector<std::string> found;
  for (const Gpu& g : t.gpus) found.push_back(g.pci_bus_id);
  EXPECT_EQ(found, expected);
  EXPECT_EQ(t.source, "live");
  EXPECT_NE(t.environment.kind, "unknown");
  EXPECT_EQ(t.pcie_matrix.size(), t.gpus.size());
}

TEST(LiveHost, ProbesAreUsed) {
  if (nvidia_gpus_in_sysfs().empty())
    GTEST_SKIP() << "no NVIDIA GPU on this machine: live probes have nothing to add";
  LiveProbes probes;
  probes.virtualization_mode = [] { return std::string("Pass-Through"); };
  probes.nvlink_counts = [](const std::vector<Gpu>& gpus) {
    std::vector<std::vector<int>> c(gpus.size(), std::vector<int>(gpus.size(), 0));
    if (gpus.size() > 1) c[0][1] = c[1][0] = 2;
    return std::optional<std::vector<std::vector<int>>>(c);
  };
  const auto t = snapshot_from_this_host(probes);
  EXPECT_EQ(t.environment.virtualization_mode, "Pass-Through");
  if (t.gpus.size() > 1) {
    EXPECT_EQ(t.nvlink_count[0][1], 2);
  }
}

class FakeSysfs : public ::testing::Test {
 protected:
  void device(const std::string& bdf, const std::string& cur_speed, const std::string& cur_width,
              const std::string& max_speed, const std::string& max_width) {
    const fs::path d = root_ / "bus/pci/devices" / bdf;
    fs::create_directories(d);
    std::ofstream(d / "current_link_speed") << cur_speed << "\n";
    std::ofstream(d / "current_link_width") << cur_width << "\n";
    std::ofstream(d / "max_link_speed") << max_speed << "\n";
    std::ofstream(d / "max_link_width") << max_width << "\n";
  }
  p2p::TempDir tmp_{"p2p_sysfs"};
  fs::path root_{tmp_.path()};
};

TEST_F(FakeSysfs, ReadsCurrentAndMaxLinks) {
  // As the H200 VM's sysfs shows its GPU.
  device("0000:00:06.0", "32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
  const auto links = read_sysfs_links(root_.string(), "0000:00:06.0", "");
  EXPECT_EQ(links.current.gen, 5);
  EXPECT_EQ(links.current.width, 16);
  EXPECT_DOUBLE_EQ(*links.current.gbps, 63.015);
  EXPECT_EQ(links.max.gen, 5);
  EXPECT_DOUBLE_EQ(*links.max.gbps, 63.015);
}

TEST_F(FakeSysfs, MaxIsLimitedByTheUpstreamPort) {
  device("0000:41:00.0", "2.5 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");   // idle Gen5 GPU
  device("0000:40:01.1", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");  // in a Gen4 slot
  const auto links = read_sysfs_links(root_.string(), "0000:41:00.0", "0000:40:01.1");
  EXPECT_EQ(links.max.gen, 4);
  EXPECT_EQ(links.max.width, 16);
  EXPECT_EQ(links.current.gen, 1);
}

TEST_F(FakeSysfs, UnknownAndMissingValuesStayEmpty) {
  device("0000:00:01.0", "Unknown", "0", "Unknown", "255");
  const auto l = read_sysfs_links(root_.string(), "0000:00:01.0", "");
  EXPECT_FALSE(l.current.gen);
  EXPECT_FALSE(l.current.width);
  EXPECT_FALSE(l.current.gbps);
  EXPECT_FALSE(l.max.width);
  EXPECT_FALSE(read_sysfs_links(root_.string(), "0000:99:00.0", "").max.gen);
}

}  // namespace
}  // namespace p2p::topo
