#include "common/sysfs_pci_link.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "common/file_io.hpp"
#include "common/text.hpp"

namespace p2p {

namespace {

// PCIe 7.0 runs 128 GT/s a lane; a figure far beyond any generation is a broken file, not a link.
constexpr double kMaxPlausibleGts = 1024;
constexpr int kMaxLanes = 32;
// The attributes are a few bytes; anything longer is not one of them.
constexpr std::size_t kMaxAttributeBytes = 256;

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_rate_char(char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }

SysfsLinkState read_state(const std::string& dir, const char* which) {
  const std::string stem = dir + which;
  SysfsLinkState s;
  if (const auto speed = try_read_text_file(stem + "_link_speed", kMaxAttributeBytes))
    s.gts = parse_sysfs_link_speed(*speed);
  if (const auto width = try_read_text_file(stem + "_link_width", kMaxAttributeBytes))
    s.width = parse_sysfs_link_width(*width);
  return s;
}

}  // namespace

std::optional<double> parse_sysfs_link_speed(std::string_view text) {
  const std::string t = trim(text);
  // Digits and at most one point, then " GT/s", then the end or a blank and more words.
  std::size_t end = 0;
  while (end < t.size() && is_rate_char(t[end])) ++end;
  const std::string rate = t.substr(0, end);
  if (!std::isdigit(static_cast<unsigned char>(rate.empty() ? 'x' : rate.front())) ||
      rate.find('.') != rate.rfind('.') || rate.size() > 16)
    return std::nullopt;
  const std::string rest = t.substr(end);
  const std::string unit = " GT/s";
  if (rest.compare(0, unit.size(), unit) != 0) return std::nullopt;
  if (rest.size() > unit.size() && !std::isspace(static_cast<unsigned char>(rest[unit.size()])))
    return std::nullopt;
  const double gts = std::strtod(rate.c_str(), nullptr);
  if (!std::isfinite(gts) || gts <= 0 || gts > kMaxPlausibleGts) return std::nullopt;
  return gts;
}

std::optional<int> parse_sysfs_link_width(std::string_view text) {
  const std::string t = trim(text);
  if (!all_digits(t) || t.size() > 2) return std::nullopt;
  const int lanes = std::stoi(t);
  if (lanes < 1 || lanes > kMaxLanes) return std::nullopt;
  return lanes;
}

SysfsPciLink read_sysfs_pci_link(const std::string& sysfs_root, const std::string& bus_id) {
  const std::string dir = sysfs_root + "/bus/pci/devices/" + bus_id + "/";
  return {read_state(dir, "current"), read_state(dir, "max")};
}

}  // namespace p2p
