#include "common/byte_size.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace {

using p2p::ByteStyle;
using p2p::format_bytes;
using p2p::parse_bytes;

TEST(ParseBytes, WhiteSpaceAroundIsIgnoredButNotBetweenNumberAndUnit) {
  EXPECT_EQ(parse_bytes(" 64MB \n", "--sizes"), 64ull << 20);
  EXPECT_EQ(parse_bytes("\t8", "-b"), 8u);
  EXPECT_THROW(parse_bytes("64 MB", "--sizes"), p2p::InputError);
}

TEST(ParseBytes, LargestThatFitsAndFirstThatDoesNot) {
  EXPECT_EQ(parse_bytes("18446744073709551615", "x"), 18446744073709551615ull);  // 2^64 - 1
  EXPECT_THROW(parse_bytes("18446744073709551616", "x"), p2p::InputError);
  EXPECT_THROW(parse_bytes("000000000000000000008", "x"), p2p::InputError);  // 21 digits
  EXPECT_EQ(parse_bytes("17179869183G", "x"), 17179869183ull << 30);
  EXPECT_THROW(parse_bytes("17179869184G", "x"), p2p::InputError);
}

TEST(ParseBytes, TheMessageNamesTheOptionAndTheTextAsTyped) {
  try {
    parse_bytes(" 1T", "--min-bytes");
    FAIL();
  } catch (const p2p::InputError& e) {
    EXPECT_STREQ(e.what(), "--min-bytes: ` 1T` is not a size (expected e.g. 8, 64K, 1M, 1G)");
  }
}

TEST(FormatBytes, StylesDifferInTheBlankAndTheLargestUnit) {
  EXPECT_EQ(format_bytes(0, ByteStyle::kSpaced), "0 B");
  EXPECT_EQ(format_bytes(0, ByteStyle::kCompact), "0B");
  EXPECT_EQ(format_bytes(1536ull << 20, ByteStyle::kSpaced), "1536 MiB");
  EXPECT_EQ(format_bytes(1ull << 40, ByteStyle::kSpaced), "1 TiB");
  EXPECT_EQ(format_bytes(1ull << 40, ByteStyle::kCompact), "1024GiB");
  EXPECT_EQ(format_bytes(1ull << 50, ByteStyle::kSpaced), "1024 TiB");
  EXPECT_EQ(format_bytes(1025, ByteStyle::kCompact), "1025B");
}

TEST(FormatBytes, CompactTextParsesBackToTheSameSize) {
  for (std::uint64_t b :
       {std::uint64_t{4}, std::uint64_t{4096}, std::uint64_t{3} << 20, std::uint64_t{16} << 30})
    EXPECT_EQ(parse_bytes(format_bytes(b, ByteStyle::kCompact), "x"), b);
}

}  // namespace
