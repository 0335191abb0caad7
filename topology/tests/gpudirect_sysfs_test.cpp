// The live reader of each GPU's clique: config-space images QEMU writes, in a sysfs tree.
#include "topology/discovery/gpudirect_sysfs.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/temp_dir.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

namespace fs = std::filesystem;

TEST(GpudirectSysfs, ReadsEachGpusConfigAndNeverCallsAMissingFileAbsent) {
  const TempDir sys("sysfs");
  const auto plant = [&](const std::string& bdf, const std::string& image) {
    fs::create_directories(sys.path() + "/bus/pci/devices/" + bdf);
    fs::copy_file(testing::fixture("config-space/" + image),
                  sys.path() + "/bus/pci/devices/" + bdf + "/config");
  };
  plant("0000:01:00.0", "h20-clique0.config");
  plant("0000:02:00.0", "h20-no-clique.config");
  auto t = testing::flat_phb(3);
  const auto caps = read_gpudirect_from_sysfs(sys.path(), t.gpus);
  ASSERT_EQ(caps.size(), 3u);
  EXPECT_EQ(caps[0].clique, 0);
  EXPECT_EQ(caps[1].state, GpudirectState::kAbsent);
  EXPECT_EQ(caps[2].state, GpudirectState::kUnreadable);
  EXPECT_NE(caps[2].detail.find("0000:03:00.0/config"), std::string::npos) << caps[2].detail;
  t.gpus[0].pci_bus_id = "";  // an nvidia-smi capture: nothing to read
  EXPECT_EQ(read_gpudirect_from_sysfs(sys.path(), t.gpus)[0].state, GpudirectState::kUnreadable);
}

}  // namespace
}  // namespace p2p::topo
