// A PCI function's link as Linux reports it under <sysfs>/bus/pci/devices/<bdf>/:
// current_link_speed ("32.0 GT/s PCIe", "8.0 GT/s", "Unknown" while the link is down) and
// current_link_width ("16", "0" while down), and the same for max_. The one reader of these
// files: the doctor, live topology discovery and the CUDA inventory all go through it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace p2p {

// One end of the pair of files: what the link runs at now, or the most it can train to.
struct SysfsLinkState {
  std::optional<double> gts;  // per-lane transfer rate in GT/s
  std::optional<int> width;   // lanes
};

struct SysfsPciLink {
  SysfsLinkState current;
  SysfsLinkState max;
};

// "<rate> GT/s" optionally followed by more words ("PCIe"), surrounding white space allowed:
// the rate, when finite and in (0, kMaxPlausibleGts]. nullopt for "Unknown", "", text without
// the unit, and anything else.
std::optional<double> parse_sysfs_link_speed(std::string_view text);

// Decimal lanes, surrounding white space allowed: 1..32 (the widest PCIe link); nullopt for
// "0" (link down), "255" (what some devices report when they do not know), signs, units, text.
std::optional<int> parse_sysfs_link_width(std::string_view text);

// Reads the four files of `bus_id` ("0000:41:00.0") under `sysfs_root` ("/sys" on a live host;
// a fixture tree in tests). Each read is capped and never blocks (a FIFO or a device node in
// place of a file reads as unknown); a missing or unreadable file leaves its value empty.
SysfsPciLink read_sysfs_pci_link(const std::string& sysfs_root, const std::string& bus_id);

}  // namespace p2p
