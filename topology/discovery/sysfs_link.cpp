#include "topology/discovery/sysfs_link.hpp"

#include <algorithm>
#include <cctype>

#include "common/file_io.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::topo {

namespace {

std::string read_value(const std::string& path) {
  std::string s = try_read_text_file(path).value_or("");
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

std::optional<int> lanes(const std::string& text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  const int n = std::stoi(text);
  return n > 0 && n <= 32 ? std::optional<int>(n) : std::nullopt;  // 0 = link down
}

std::optional<int> lower(std::optional<int> a, std::optional<int> b) {
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

PcieLink with_gbps(PcieLink l) {
  if (l.gen && l.width) return make_link(*l.gen, *l.width);
  return l;
}

}  // namespace

PcieLink read_sysfs_link(const std::string& sysfs_root, const std::string& bus_id, const std::string& which) {
  const std::string dir = sysfs_root + "/bus/pci/devices/" + bus_id + "/";
  PcieLink l;
  l.gen = gen_from_transfer_rate(read_value(dir + which + "_link_speed"));
  l.width = lanes(read_value(dir + which + "_link_width"));
  return with_gbps(l);
}

PcieLink read_sysfs_max_link(const std::string& sysfs_root, const std::string& bus_id,
                             const std::string& upstream_bus_id) {
  PcieLink gpu = read_sysfs_link(sysfs_root, bus_id, "max");
  if (upstream_bus_id.empty()) return gpu;
  const PcieLink port = read_sysfs_link(sysfs_root, upstream_bus_id, "max");
  PcieLink l;
  l.gen = lower(gpu.gen, port.gen);
  l.width = lower(gpu.width, port.width);
  return with_gbps(l);
}

}  // namespace p2p::topo
