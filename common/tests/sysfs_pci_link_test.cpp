#include "common/sysfs_pci_link.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "common/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

using p2p::parse_sysfs_link_speed;
using p2p::parse_sysfs_link_width;

TEST(SysfsLinkSpeed, ReadsWhatKernelsWrite) {
  EXPECT_EQ(parse_sysfs_link_speed("32.0 GT/s PCIe\n"), 32.0);  // newer kernels
  EXPECT_EQ(parse_sysfs_link_speed("16.0 GT/s PCIe"), 16.0);
  EXPECT_EQ(parse_sysfs_link_speed("2.5 GT/s PCIe"), 2.5);
  EXPECT_EQ(parse_sysfs_link_speed("32.0 GT/s"), 32.0);  // older kernels
  EXPECT_EQ(parse_sysfs_link_speed("8 GT/s"), 8.0);
  EXPECT_EQ(parse_sysfs_link_speed("  64.0 GT/s PCIe  "), 64.0);
}

TEST(SysfsLinkSpeed, AnythingElseIsUnknown) {
  EXPECT_FALSE(parse_sysfs_link_speed("Unknown"));  // the link is down
  EXPECT_FALSE(parse_sysfs_link_speed("Unknown speed"));
  EXPECT_FALSE(parse_sysfs_link_speed(""));
  EXPECT_FALSE(parse_sysfs_link_speed("\n"));
  EXPECT_FALSE(parse_sysfs_link_speed("32.0"));  // no unit
  EXPECT_FALSE(parse_sysfs_link_speed("32.0 GB/s"));
  EXPECT_FALSE(parse_sysfs_link_speed("32.0 GT/sPCIe"));
  EXPECT_FALSE(parse_sysfs_link_speed("0.0 GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed("-8.0 GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed("1.2.3 GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed(".5 GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed("nan GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed("inf GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed("1e308 GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed("99999 GT/s"));  // far beyond any generation
  EXPECT_FALSE(parse_sysfs_link_speed(std::string(100000, '9') + " GT/s"));
  EXPECT_FALSE(parse_sysfs_link_speed(std::string("32.0\0 GT/s", 10)));
}

TEST(SysfsLinkWidth, LanesFromOneToThirtyTwo) {
  EXPECT_EQ(parse_sysfs_link_width("16\n"), 16);
  EXPECT_EQ(parse_sysfs_link_width("1"), 1);
  EXPECT_EQ(parse_sysfs_link_width("32"), 32);
  EXPECT_EQ(parse_sysfs_link_width(" 8 "), 8);
}

TEST(SysfsLinkWidth, AnythingElseIsUnknown) {
  EXPECT_FALSE(parse_sysfs_link_width("0"));    // the link is down
  EXPECT_FALSE(parse_sysfs_link_width("255"));  // "not known" on some devices
  EXPECT_FALSE(parse_sysfs_link_width("64"));
  EXPECT_FALSE(parse_sysfs_link_width(""));
  EXPECT_FALSE(parse_sysfs_link_width("x16"));
  EXPECT_FALSE(parse_sysfs_link_width("16x"));
  EXPECT_FALSE(parse_sysfs_link_width("-16"));
  EXPECT_FALSE(parse_sysfs_link_width("+16"));
  EXPECT_FALSE(parse_sysfs_link_width("1 6"));
  EXPECT_FALSE(parse_sysfs_link_width("Unknown"));
  EXPECT_FALSE(parse_sysfs_link_width(std::string(100000, '1')));
}

class SysfsTree : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(dev_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dev_ / name) << text;
  }
  p2p::SysfsPciLink read() { return p2p::read_sysfs_pci_link(root_.string(), "0000:41:00.0"); }
  p2p::TempDir tmp_{"p2p_sysfs_link"};
  fs::path root_{tmp_.path()};
  fs::path dev_{root_ / "bus/pci/devices/0000:41:00.0"};
};

TEST_F(SysfsTree, ReadsCurrentAndMax) {
  write("current_link_speed", "2.5 GT/s PCIe\n");  // an idle Gen5 GPU saves power at Gen1
  write("current_link_width", "16\n");
  write("max_link_speed", "32.0 GT/s PCIe\n");
  write("max_link_width", "16\n");
  const auto l = read();
  EXPECT_EQ(l.current.gts, 2.5);
  EXPECT_EQ(l.current.width, 16);
  EXPECT_EQ(l.max.gts, 32.0);
  EXPECT_EQ(l.max.width, 16);
}

TEST_F(SysfsTree, MissingDeviceOrFilesLeaveValuesEmpty) {
  write("max_link_width", "8\n");
  const auto l = read();
  EXPECT_FALSE(l.current.gts);
  EXPECT_FALSE(l.current.width);
  EXPECT_FALSE(l.max.gts);
  EXPECT_EQ(l.max.width, 8);
  const auto none = p2p::read_sysfs_pci_link(root_.string(), "0000:99:00.0");
  EXPECT_FALSE(none.current.gts || none.current.width || none.max.gts || none.max.width);
}

TEST_F(SysfsTree, HostileFilesReadAsUnknownWithoutBlockingOrFillingMemory) {
  // A FIFO nobody writes to, /dev/zero, a directory and a huge file in place of the attributes:
  // the capped, non-blocking read gives up on each at once.
  ASSERT_EQ(mkfifo((dev_ / "current_link_speed").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", dev_ / "current_link_width");
  fs::create_directory(dev_ / "max_link_speed");
  write("max_link_width", std::string(8 << 20, '1'));
  const auto l = read();
  EXPECT_FALSE(l.current.gts);
  EXPECT_FALSE(l.current.width);
  EXPECT_FALSE(l.max.gts);
  EXPECT_FALSE(l.max.width);
}

}  // namespace
