// bdfs_in_line and xid_code scan lines by hand for speed. The regular expressions they replaced
// are the specification: here they judge the same generated lines, and both must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "doctor/derived.hpp"

namespace p2p::doctor {
namespace {

std::vector<std::string> reference_bdfs(const std::string& line) {
  static const std::regex kFull("([0-9a-fA-F]{4,8}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\\.([0-7])");
  static const std::regex kShort(
      "(?:device=|device \\[)(?:0x)?([0-9a-fA-F]{2}):(?:0x)?([0-9a-fA-F]{2})\\.([0-7])");
  static const std::regex kXid(
      "PCI:([0-9a-fA-F]{4,8}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})(?![.0-9a-fA-F])");
  std::vector<std::string> out;
  auto add = [&](const std::string& b) {
    const std::string n = normalize_bdf(b);
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  const std::sregex_iterator end;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), kFull); it != end; ++it)
    add((*it)[1].str() + ":" + (*it)[2].str() + ":" + (*it)[3].str() + "." + (*it)[4].str());
  for (auto it = std::sregex_iterator(line.begin(), line.end(), kShort); it != end; ++it)
    add((*it)[1].str() + ":" + (*it)[2].str() + "." + (*it)[3].str());
  for (auto it = std::sregex_iterator(line.begin(), line.end(), kXid); it != end; ++it)
    add((*it)[1].str() + ":" + (*it)[2].str() + ":" + (*it)[3].str() + ".0");
  return out;
}

std::optional<int> reference_xid(const std::string& line) {
  static const std::regex kXidCode("Xid \\([^)]*\\): ([0-9]{1,6})");
  std::smatch m;
  if (!std::regex_search(line, m, kXidCode)) return std::nullopt;
  return std::stoi(m[1].str());
}

// Lines of the pieces addresses and Xids are made of, in every order: near misses (a domain of
// 3 or 9 digits, a function of 8, a missing colon) as often as real ones.
std::vector<std::string> generated_lines(std::size_t count) {
  const std::vector<std::string> pieces = {"PCI:",
                                           "0000",
                                           "000",
                                           "12345678",
                                           "123456789",
                                           "41",
                                           "4",
                                           ":",
                                           "00",
                                           ".",
                                           "0",
                                           "7",
                                           "8",
                                           "device=",
                                           "device [",
                                           "device",
                                           "0x",
                                           "Xid (",
                                           "Xid",
                                           "(",
                                           ")",
                                           "): ",
                                           "119",
                                           "1234567",
                                           "aB",
                                           "g",
                                           " ",
                                           ",",
                                           "]",
                                           "NVRM: ",
                                           "\t",
                                           "0000:41:00",
                                           "0000:41:00.",
                                           "41:00.",
                                           "0x41:0x00.",
                                           "0000:4g:00.",
                                           "12345678:c1:00",
                                           "Xid (PCI:0000:61:00",
                                           "Xid (PCI:"};
  std::mt19937 rng(20261206);
  std::uniform_int_distribution<std::size_t> piece(0, pieces.size() - 1), length(1, 14);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) {
    std::string line;
    for (std::size_t n = length(rng); n > 0; --n) line += pieces[piece(rng)];
    out.push_back(line);
  }
  return out;
}

TEST(LogLineScan, AgreesWithTheRegularExpressionsItReplaced) {
  std::size_t with_address = 0, with_xid = 0;
  for (const std::string& line : generated_lines(6000)) {
    const auto expected = reference_bdfs(line);
    ASSERT_EQ(bdfs_in_line(line), expected) << "'" << line << "'";
    ASSERT_EQ(xid_code(line), reference_xid(line)) << "'" << line << "'";
    with_address += expected.empty() ? 0 : 1;
    with_xid += reference_xid(line) ? 1 : 0;
  }
  // The generator reaches both kinds of match often enough for the comparison to mean something.
  EXPECT_GT(with_address, 1000u);
  EXPECT_GT(with_xid, 60u);
}

TEST(LogLineScan, RealDriverLines) {
  using Gpus = std::vector<std::string>;
  EXPECT_EQ(bdfs_in_line("NVRM: Xid (PCI:0000:61:00): 79, pid=1, GPU has fallen off the bus."),
            (Gpus{"0000:61:00.0"}));
  EXPECT_EQ(bdfs_in_line("vfio-pci 0000:41:00.0: enabling device (0000 -> 0003)"),
            (Gpus{"0000:41:00.0"}));
  EXPECT_EQ(bdfs_in_line("DMAR: [DMA Read] Request device [0x41:0x00.0] fault addr 0x0"),
            (Gpus{"0000:41:00.0"}));
  EXPECT_EQ(bdfs_in_line("AMD-Vi: Event logged [IO_PAGE_FAULT device=c1:00.0 domain=0x000e]"),
            (Gpus{"0000:c1:00.0"}));
  EXPECT_EQ(xid_code("NVRM: Xid (PCI:0000:61:00): 119, pid=1365232, Timeout"), 119);
  EXPECT_EQ(xid_code("NVRM: Xid (PCI:0000:61:00) 119"), std::nullopt);
}

}  // namespace
}  // namespace p2p::doctor
