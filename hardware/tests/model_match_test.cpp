#include "hardware/model_match.hpp"

#include <gtest/gtest.h>

#include "hardware/tests/test_base.hpp"

namespace p2p::hw {
namespace {

std::string key_of(const std::string& given) {
  static const KnowledgeBase kb = testing::test_base();
  const ModelMatch m = identify_model(kb, given);
  return m.model ? m.model->key : "";
}

TEST(ModelMatch, NamesAsEachToolPrintsThem) {
  EXPECT_EQ(key_of("NVIDIA RTX PRO 6000 Blackwell Server Edition"), "pro-server");
  EXPECT_EQ(key_of("nvidia rtx-pro-6000 BLACKWELL server edition"), "pro-server");
  // p2pBandwidthLatencyTest: "Device: 0, <name>, pciBusID: 1, ..." (the name cut out by the
  // reader); simpleP2P: "<name> (GPU0)".
  EXPECT_EQ(key_of("NVIDIA GeForce RTX 4090 (GPU0)"), "rtx-4090");
  EXPECT_EQ(key_of("GeForce RTX 4090"), "rtx-4090");
}

TEST(ModelMatch, PciIdsInAnyCase) {
  EXPECT_EQ(key_of("10de:2bb1"), "pro-workstation");
  EXPECT_EQ(key_of("10DE:2684"), "rtx-4090");
  EXPECT_EQ(key_of("10de:ffff"), "");
}

TEST(ModelMatch, NoGuessWhereTheNameIsAnotherModelOrAmbiguous) {
  EXPECT_EQ(key_of("NVIDIA GeForce RTX 4080"), "");
  EXPECT_EQ(key_of("NVIDIA Graphics Device"), "");
  // "RTX 40900" is not "RTX 4090": whole words only.
  EXPECT_EQ(key_of("NVIDIA GeForce RTX 40900"), "");
  EXPECT_EQ(key_of(""), "");
}

}  // namespace
}  // namespace p2p::hw
