#include "bench/sizes.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace {

using namespace p2p::bench;
using p2p::ByteStyle;
using p2p::format_bytes;

TEST(Sizes, DefaultSweepIsEveryFourthPowerOfTwoFrom4KiBThen512MiB) {
  const auto s = default_sweep_bytes();
  ASSERT_EQ(s.size(), 10u);
  EXPECT_EQ(s.front(), 4096u);
  EXPECT_EQ(s[8], 256ull << 20);
  EXPECT_EQ(s.back(), 512ull << 20);
  for (std::size_t i = 1; i + 1 < s.size(); ++i) EXPECT_EQ(s[i], 4 * s[i - 1]);
}

TEST(Sizes, ParsesSuffixesAsBinaryMultiples) {
  EXPECT_EQ(parse_size_bytes("4096"), 4096u);
  EXPECT_EQ(parse_size_bytes("64K"), 64u * 1024);
  EXPECT_EQ(parse_size_bytes("64k"), 64u * 1024);
  EXPECT_EQ(parse_size_bytes("64KiB"), 64u * 1024);
  EXPECT_EQ(parse_size_bytes("64M"), 64ull << 20);
  EXPECT_EQ(parse_size_bytes(" 64MB "), 64ull << 20);
  EXPECT_EQ(parse_size_bytes("1G"), 1ull << 30);
  EXPECT_EQ(parse_size_bytes("16GiB"), 16ull << 30);
  EXPECT_EQ(parse_size_bytes("1000"), 1000u);
}

TEST(Sizes, RejectsJunkWithTheOffendingText) {
  for (const char* bad :
       {"", "abc", "64X", "-4K", "1.5G", "0", "0M", "6", "17G", "99999999999999G", "G"}) {
    try {
      parse_size_bytes(bad);
      ADD_FAILURE() << "accepted `" << bad << "`";
    } catch (const p2p::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--sizes: `" + std::string(bad) + "`"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(Sizes, ListIsSortedAndUnique) {
  EXPECT_EQ(parse_size_list("1G,64M"), (std::vector<std::uint64_t>{64ull << 20, 1ull << 30}));
  EXPECT_EQ(parse_size_list("64M,64M,4K"), (std::vector<std::uint64_t>{4096, 64ull << 20}));
  EXPECT_THROW(parse_size_list("64M,"), p2p::InputError);
  EXPECT_THROW(parse_size_list(",64M"), p2p::InputError);
  EXPECT_THROW(parse_size_list("64M,,1G"), p2p::InputError);
  EXPECT_THROW(parse_size_list("64M,x"), p2p::InputError);
}

TEST(Sizes, FormatsWithTheLargestWholeUnit) {
  EXPECT_EQ(format_bytes(4096, ByteStyle::kCompact), "4KiB");
  EXPECT_EQ(format_bytes(64ull << 20, ByteStyle::kCompact), "64MiB");
  EXPECT_EQ(format_bytes(1ull << 30, ByteStyle::kCompact), "1GiB");
  EXPECT_EQ(format_bytes(1536ull << 20, ByteStyle::kCompact), "1536MiB");
  EXPECT_EQ(format_bytes(1000, ByteStyle::kCompact), "1000B");
  for (auto b : default_sweep_bytes())
    EXPECT_EQ(parse_size_bytes(format_bytes(b, ByteStyle::kCompact)), b);
}

TEST(Sizes, BatchMovesAbout1GiBWithinBounds) {
  EXPECT_EQ(copies_per_batch(4096), 64);  // capped
  EXPECT_EQ(copies_per_batch(16ull << 20), 64);
  EXPECT_EQ(copies_per_batch(32ull << 20), 32);
  EXPECT_EQ(copies_per_batch(64ull << 20), 16);
  EXPECT_EQ(copies_per_batch(256ull << 20), 4);
  EXPECT_EQ(copies_per_batch(512ull << 20), 4);  // floor
  EXPECT_EQ(copies_per_batch(1ull << 30), 4);
  EXPECT_EQ(copies_per_batch(100ull << 20), 11);  // rounds up
}

}  // namespace
