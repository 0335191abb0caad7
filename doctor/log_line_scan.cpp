// bdfs_in_line and xid_code: the two questions asked of every kernel log line. Scanned by hand,
// not with std::regex: libstdc++'s backtracking matcher made them 30 µs a line, 6 s for the
// 200,000-line ceiling of a facts file (a minute in a sanitized build). The regular expressions
// they replace are kept in doctor/tests/log_line_scan_test.cpp, which checks both agree.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "doctor/derived.hpp"

namespace p2p::doctor {
namespace {

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// The number of hex digits from `at`, stopping after `most` (one more tells "too long").
std::size_t hex_run(const std::string& s, std::size_t at, std::size_t most) {
  std::size_t n = 0;
  while (at + n < s.size() && n <= most && is_hex(s[at + n])) ++n;
  return n;
}

bool char_at(const std::string& s, std::size_t at, char c) { return at < s.size() && s[at] == c; }

bool two_hex_at(const std::string& s, std::size_t at) {
  return at + 1 < s.size() && is_hex(s[at]) && is_hex(s[at + 1]);
}

// "DDDD[DDDD]:BB:DD" from `at` (a domain of 4 to 8 hex digits, then bus and device): its end, or
// npos. Only one domain length can be followed by ':', so the first try is the only one.
std::size_t domain_bus_device(const std::string& s, std::size_t at) {
  const std::size_t domain = hex_run(s, at, 8);
  if (domain < 4 || domain > 8 || !char_at(s, at + domain, ':')) return std::string::npos;
  const std::size_t bus = at + domain + 1;
  if (!two_hex_at(s, bus) || !char_at(s, bus + 2, ':') || !two_hex_at(s, bus + 3))
    return std::string::npos;
  return bus + 5;
}

bool function_at(const std::string& s, std::size_t at) {
  return char_at(s, at, '.') && at + 1 < s.size() && s[at + 1] >= '0' && s[at + 1] <= '7';
}

// "0000:41:00.0" anywhere: the leftmost match, then the next from its end.
void full_addresses(const std::string& line, std::vector<std::string>& found) {
  std::size_t at = 0;
  while (at < line.size()) {
    const std::size_t end = domain_bus_device(line, at);
    if (end != std::string::npos && function_at(line, end)) {
      found.push_back(line.substr(at, end + 2 - at));
      at = end + 2;
    } else {
      ++at;
    }
  }
}

// After "device=" or "device [": "[0x]BB:[0x]DD.F" (vfio-pci and the PCI core's short form).
void short_addresses(const std::string& line, std::vector<std::string>& found) {
  for (std::size_t at = line.find("device"); at != std::string::npos;
       at = line.find("device", at + 1)) {
    std::size_t p = at + 6;
    if (char_at(line, p, '='))
      p += 1;
    else if (line.compare(p, 2, " [") == 0)
      p += 2;
    else
      continue;
    if (line.compare(p, 2, "0x") == 0) p += 2;
    if (!two_hex_at(line, p) || !char_at(line, p + 2, ':')) continue;
    const std::string bus = line.substr(p, 2);
    p += 3;
    if (line.compare(p, 2, "0x") == 0) p += 2;
    if (!two_hex_at(line, p) || !function_at(line, p + 2)) continue;
    found.push_back(bus + ":" + line.substr(p, 2) + "." + line[p + 3]);
  }
}

// Xid lines: "NVRM: Xid (PCI:0000:61:00): 119, ..." name no function: function 0.
void xid_addresses(const std::string& line, std::vector<std::string>& found) {
  for (std::size_t at = line.find("PCI:"); at != std::string::npos;
       at = line.find("PCI:", at + 1)) {
    const std::size_t end = domain_bus_device(line, at + 4);
    if (end == std::string::npos) continue;
    if (end < line.size() && (line[end] == '.' || is_hex(line[end]))) continue;
    found.push_back(line.substr(at + 4, end - at - 4) + ".0");
  }
}

}  // namespace

std::vector<std::string> bdfs_in_line(const std::string& line) {
  std::vector<std::string> raw;
  full_addresses(line, raw);
  short_addresses(line, raw);
  xid_addresses(line, raw);
  std::vector<std::string> out;
  for (const auto& b : raw) {
    const std::string n = normalize_bdf(b);
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

std::optional<int> xid_code(const std::string& line) {
  // "Xid (anything but ')'): " then 1 to 6 digits.
  for (std::size_t at = line.find("Xid ("); at != std::string::npos;
       at = line.find("Xid (", at + 1)) {
    const std::size_t close = line.find(')', at + 5);
    if (close == std::string::npos) return std::nullopt;
    if (line.compare(close, 3, "): ") != 0) continue;
    std::size_t digits = 0;
    while (close + 3 + digits < line.size() && digits < 6 &&
           std::isdigit(static_cast<unsigned char>(line[close + 3 + digits])))
      ++digits;
    if (digits > 0) return std::stoi(line.substr(close + 3, digits));
  }
  return std::nullopt;
}

}  // namespace p2p::doctor
