// NVIDIA PCI functions from sysfs (identity, link, AER, driver, BAR1, IOMMU group, the bridges
// above with their ACS control) and the driver's per-GPU information files.
#include <cstdint>
#include <filesystem>
#include <regex>

#include "common/sysfs_pci_link.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/collect/collect_io.hpp"
#include "doctor/knowledge/gpu_generation.hpp"

namespace p2p::doctor {

namespace {

namespace fs = std::filesystem;

constexpr int kNvidiaVendor = 0x10de;
constexpr std::size_t kExtendedConfigStart = 0x100;
constexpr int kAcsCapabilityId = 0x000d;
constexpr int kAcsControlOffset = 6;

std::optional<long long> number(const Observed<std::string>& v, int base) {
  if (!v.present()) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long n = std::stoll(v.value, &used, base);
    if (used == 0) return std::nullopt;
    return n;
  } catch (...) {
    return std::nullopt;
  }
}

// aer_dev_* files end with a "TOTAL_ERR_COR N" / "TOTAL_ERR_NONFATAL N" / "TOTAL_ERR_FATAL N" line.
std::optional<std::uint64_t> aer_total(const std::string& dir, const char* file) {
  const auto text = io::read_file(dir + "/" + file);
  if (!text.present()) return std::nullopt;
  for (const auto& line : io::split_lines(text.value)) {
    if (line.rfind("TOTAL_ERR_", 0) != 0) continue;
    try {
      return std::stoull(line.substr(line.find(' ') + 1));
    } catch (...) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Line 1 of `resource` (BAR1): "0x<start> 0x<end> 0x<flags>"; size = end - start + 1.
std::optional<std::uint64_t> bar1_bytes(const std::string& dir) {
  const auto text = io::read_file(dir + "/resource");
  if (!text.present()) return std::nullopt;
  const auto lines = io::split_lines(text.value);
  if (lines.size() < 2) return std::nullopt;
  unsigned long long start = 0, end = 0;
  if (std::sscanf(lines[1].c_str(), "%llx %llx", &start, &end) != 2 || end <= start)
    return std::nullopt;
  return end - start + 1;
}

std::vector<Bridge> upstream_bridges(const std::string& device_dir, const std::string& bdf) {
  // The canonical sysfs path nests each function under its parent bridge:
  // /sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0/0000:42:08.0/0000:43:00.0
  std::vector<Bridge> out;
  std::error_code ec;
  const fs::path real = fs::canonical(device_dir, ec);
  if (ec) return out;
  static const std::regex kBdf("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
  fs::path walk;
  for (const auto& part : real) {
    walk /= part;
    const std::string name = part.string();
    if (!std::regex_match(name, kBdf) || name == bdf) continue;
    Bridge b;
    b.bdf = name;
    const auto config = io::read_file((walk / "config").string(), 4096);
    if (config.present()) {
      b.acs_control = acs_control_from_config(config.value);
    } else {
      b.acs_control.seen = config.seen == Seen::kAbsent ? Seen::kUnreadable : config.seen;
      b.acs_control.error = config.error.empty() ? "no config file" : config.error;
    }
    out.push_back(b);
  }
  return out;
}

}  // namespace

Observed<int> acs_control_from_config(const std::string& config) {
  if (config.size() <= kExtendedConfigStart)
    return Observed<int>::unreadable("config space cut at " + std::to_string(config.size()) +
                                     " bytes");
  auto dword = [&](std::size_t at) -> std::uint32_t {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
      v = (v << 8) | static_cast<unsigned char>(config[at + static_cast<std::size_t>(i)]);
    return v;
  };
  std::size_t at = kExtendedConfigStart;
  for (int guard = 0; guard < 256 && at >= kExtendedConfigStart && at + 8 <= config.size();
       ++guard) {
    const std::uint32_t header = dword(at);
    if (header == 0 || header == 0xffffffffu) break;  // no extended capabilities
    if (static_cast<int>(header & 0xffffu) == kAcsCapabilityId) {
      const std::size_t c = at + kAcsControlOffset;
      return Observed<int>::of(static_cast<unsigned char>(config[c]) |
                               (static_cast<unsigned char>(config[c + 1]) << 8));
    }
    at = (header >> 20) & 0xffcu;
    if (at == 0) break;
  }
  return Observed<int>::missing();
}

Observed<std::vector<PciFunction>> collect_pci(const std::string& root) {
  const std::string r = io::root_prefix(root);
  const std::string base = r + "/sys/bus/pci/devices";
  const auto names = io::list_dir(base);
  Observed<std::vector<PciFunction>> out;
  out.seen = names.seen;
  out.error = names.error;
  if (!names.present()) return out;
  for (const auto& bdf : names.value) {
    const std::string dir = base + "/" + bdf;
    if (number(io::read_trimmed(dir + "/vendor"), 16) != kNvidiaVendor) continue;
    PciFunction p;
    p.bdf = bdf;
    p.vendor_id = kNvidiaVendor;
    p.device_id = static_cast<int>(number(io::read_trimmed(dir + "/device"), 16).value_or(0));
    p.class_code = static_cast<int>(number(io::read_trimmed(dir + "/class"), 16).value_or(0));
    if (!is_gpu_class(p.class_code) && !is_nvswitch_class(p.class_code))
      continue;  // audio, USB-C functions
    if (const auto numa = number(io::read_trimmed(dir + "/numa_node"), 10); numa && *numa >= 0)
      p.numa_node = static_cast<int>(*numa);
    const SysfsPciLink link = read_sysfs_pci_link(r + "/sys", bdf);
    p.current_link_gts = link.current.gts;
    p.max_link_gts = link.max.gts;
    p.current_link_width = link.current.width;
    p.max_link_width = link.max.width;
    p.aer_correctable = aer_total(dir, "aer_dev_correctable");
    p.aer_nonfatal = aer_total(dir, "aer_dev_nonfatal");
    p.aer_fatal = aer_total(dir, "aer_dev_fatal");
    const auto driver = io::read_link(dir + "/driver");
    p.driver = driver;
    if (driver.present()) p.driver.value = fs::path(driver.value).filename().string();
    p.bar1_bytes = bar1_bytes(dir);
    if (io::read_link(dir + "/iommu_group").present()) {
      const auto type = io::read_trimmed(dir + "/iommu_group/type");
      if (type.present() && !type.value.empty()) p.iommu_group_type = type.value;
    }
    p.upstream = upstream_bridges(dir, bdf);
    out.value.push_back(p);
  }
  return out;
}

Observed<std::vector<GpuInformation>> collect_gpu_information(const std::string& root) {
  const std::string base = io::root_prefix(root) + "/proc/driver/nvidia/gpus";
  const auto names = io::list_dir(base);
  Observed<std::vector<GpuInformation>> out;
  out.seen = names.seen;
  out.error = names.error;
  if (!names.present()) return out;
  for (const auto& bdf : names.value) {
    const auto text = io::read_file(base + "/" + bdf + "/information");
    if (!text.present()) continue;
    GpuInformation g;
    g.bdf = bdf;
    for (const auto& line : io::split_lines(text.value)) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      const std::string key = io::trim(line.substr(0, colon)),
                        value = io::trim(line.substr(colon + 1));
      if (key == "Model") g.model = value;
      if (key == "Device Minor") {
        try {
          g.device_minor = std::stoi(value);
        } catch (...) {
        }
      }
      // Releases label it "GSP Firmware" or "GPU Firmware"; both carry the running version or N/A.
      if (key == "GSP Firmware" || key == "GPU Firmware") g.gsp_firmware = value;
    }
    out.value.push_back(g);
  }
  return out;
}

}  // namespace p2p::doctor
