// The virtual P2P approval capability read from guest config-space images written byte for byte
// as QEMU's vfio-pci presents them (fixtures/config-space/, README there).
#include "topology/gpudirect_capability.hpp"

#include <gtest/gtest.h>

#include "common/file_io.hpp"
#include "topology/tests/test_support.hpp"

namespace p2p::topo {
namespace {

GpudirectCapability read_image(const std::string& name) {
  return read_gpudirect_capability(read_text_file(testing::fixture("config-space/" + name)));
}

TEST(GpudirectCapability, CliqueAtC8WhereTheGpuLeavesItFree) {
  const auto c = read_image("h20-clique0.config");
  EXPECT_EQ(c.state, GpudirectState::kPresent);
  EXPECT_EQ(c.clique, 0);
  EXPECT_EQ(c.offset, 0xc8);
  EXPECT_EQ(describe_gpudirect(c), "clique 0 (capability at 0xc8)");
}

TEST(GpudirectCapability, CliqueAtD4WhereMsixHoldsC8) {
  const auto c = read_image("a100-clique3.config");
  EXPECT_EQ(c.state, GpudirectState::kPresent);
  EXPECT_EQ(c.clique, 3);
  EXPECT_EQ(c.offset, 0xd4);
}

TEST(GpudirectCapability, NvidiasOwnVendorCapabilityIsNotAClique) {
  const auto none = read_image("gp104-vendor-cap-no-clique.config");
  EXPECT_EQ(none.state, GpudirectState::kAbsent);
  EXPECT_FALSE(none.clique);
  const auto five = read_image("gp104-clique5.config");
  EXPECT_EQ(five.state, GpudirectState::kPresent);
  EXPECT_EQ(five.clique, 5);
  EXPECT_EQ(five.offset, 0xc8);
}

TEST(GpudirectCapability, AbsentWithoutTheHypervisorsCapability) {
  const auto c = read_image("h20-no-clique.config");
  EXPECT_EQ(c.state, GpudirectState::kAbsent);
  EXPECT_EQ(describe_gpudirect(c), "no virtual P2P approval capability");
}

TEST(GpudirectCapability, AnUnprivilegedReadIsUnreadableNotAbsent) {
  const auto c = read_image("h20-clique0-unprivileged.config");
  EXPECT_EQ(c.state, GpudirectState::kUnreadable);
  EXPECT_NE(c.detail.find("cut at 64 bytes"), std::string::npos) << c.detail;
  EXPECT_EQ(read_gpudirect_capability("").state, GpudirectState::kUnreadable);
}

TEST(GpudirectCapability, ACliqueIdOver15IsMalformed) {
  const auto c = read_image("bad-clique-id-16.config");
  EXPECT_EQ(c.state, GpudirectState::kMalformed);
  EXPECT_FALSE(c.clique);
  EXPECT_NE(c.detail.find("clique ID 16"), std::string::npos) << c.detail;
}

TEST(GpudirectCapability, ALoopingListIsMalformedAndEnds) {
  const auto c = read_image("bad-list-loops.config");
  EXPECT_EQ(c.state, GpudirectState::kMalformed);
  EXPECT_NE(c.detail.find("loops back to 0x48"), std::string::npos) << c.detail;
}

TEST(GpudirectCapability, BadLengthVersionAndPointersAreMalformed) {
  std::string config = read_text_file(testing::fixture("config-space/h20-clique0.config"));
  std::string bad_length = config;
  bad_length[0xc8 + 2] = 0x0c;
  EXPECT_NE(read_gpudirect_capability(bad_length).detail.find("length 12"), std::string::npos);
  std::string bad_version = config;
  bad_version[0xc8 + 6] = 0x01;
  EXPECT_EQ(read_gpudirect_capability(bad_version).state, GpudirectState::kMalformed);
  std::string into_header = config;
  into_header[0x34] = 0x10;
  EXPECT_NE(read_gpudirect_capability(into_header).detail.find("outside 0x40-0xff"),
            std::string::npos);
  std::string no_list = config;
  no_list[0x06] = 0x00;
  EXPECT_EQ(read_gpudirect_capability(no_list).state, GpudirectState::kAbsent);
}

}  // namespace
}  // namespace p2p::topo
