#include "nccl/sweep.hpp"

#include <gtest/gtest.h>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "nccl/dtype.hpp"

namespace p2p::nccl {
namespace {

TEST(Sweep, DefaultIsEightBytesToOneGibibyteByFactorTwo) {
  const auto sizes = sweep_sizes(SweepSpec{});
  ASSERT_EQ(sizes.size(), 28u);
  EXPECT_EQ(sizes.front(), 8u);
  EXPECT_EQ(sizes[1], 16u);
  EXPECT_EQ(sizes.back(), 1ull << 30);
}

TEST(Sweep, FactorFourAndAMaximumOffTheGrid) {
  const auto sizes = sweep_sizes({8, 1000, 4});
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{8, 32, 128, 512}));
  EXPECT_EQ(sweep_sizes({64, 64, 2}), (std::vector<std::uint64_t>{64}));
}

TEST(Sweep, RejectsBadRangesNamingTheOption) {
  EXPECT_THROW(sweep_sizes({0, 8, 2}), InputError);
  EXPECT_THROW(sweep_sizes({16, 8, 2}), InputError);
  try {
    sweep_sizes({8, 16, 1});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--step-factor"), std::string::npos);
  }
}

TEST(ParseBytes, BinaryUnitsAsNcclTestsReadsThem) {
  EXPECT_EQ(parse_bytes("8", "-b"), 8u);
  EXPECT_EQ(parse_bytes("64K", "-b"), 65536u);
  EXPECT_EQ(parse_bytes("1M", "-b"), 1u << 20);
  EXPECT_EQ(parse_bytes("512MiB", "-b"), 512u << 20);
  EXPECT_EQ(parse_bytes("1G", "-b"), 1ull << 30);
  EXPECT_EQ(parse_bytes("1gb", "-b"), 1ull << 30);
}

TEST(ParseBytes, RejectsGarbageWithOneLineNamingTheOption) {
  for (const char* bad : {"", "G", "1T", "-8", "1.5M", "8 B", "99999999999999999999"}) {
    try {
      parse_bytes(bad, "--max-bytes");
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--max-bytes: `", 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(parse_bytes("17179869184G", "x"), InputError);  // overflows 64 bits
}

TEST(FormatBytes, ExactBinaryMultiplesOnly) {
  EXPECT_EQ(format_bytes(8, ByteStyle::kSpaced), "8 B");
  EXPECT_EQ(format_bytes(1024, ByteStyle::kSpaced), "1 KiB");
  EXPECT_EQ(format_bytes(64ull << 20, ByteStyle::kSpaced), "64 MiB");
  EXPECT_EQ(format_bytes(1ull << 30, ByteStyle::kSpaced), "1 GiB");
  EXPECT_EQ(format_bytes(1000, ByteStyle::kSpaced), "1000 B");
}

TEST(SampleSizes, EvenSplitLargerFirstNeverEmpty) {
  EXPECT_EQ(sample_sizes(20, 5), (std::vector<int>{4, 4, 4, 4, 4}));
  EXPECT_EQ(sample_sizes(22, 5), (std::vector<int>{5, 5, 4, 4, 4}));
  EXPECT_EQ(sample_sizes(3, 5), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(sample_sizes(20, 20), std::vector<int>(20, 1));  // a median over single operations
  EXPECT_EQ(sample_sizes(20, 0), (std::vector<int>{20}));
}

TEST(DataType, NamesSizesAndErrors) {
  EXPECT_EQ(element_bytes(DataType::kFloat32), 4u);
  EXPECT_EQ(element_bytes(DataType::kBfloat16), 2u);
  EXPECT_EQ(element_bytes(DataType::kFloat16), 2u);
  for (DataType t : all_data_types()) EXPECT_EQ(parse_data_type(to_string(t)), t);
  EXPECT_EQ(parse_data_type("half"), DataType::kFloat16);
  EXPECT_EQ(nccl_tests_name(DataType::kFloat32), "float");
  EXPECT_THROW(parse_data_type("int8"), InputError);
}

}  // namespace
}  // namespace p2p::nccl
