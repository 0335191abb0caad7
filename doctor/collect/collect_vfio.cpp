// The VFIO facts from sysfs: each NVIDIA GPU's config space (for the hypervisor's GPUDirect clique
// capability, in a guest) and its IOMMU group with the other devices in it (on a host).
#include <filesystem>

#include "doctor/collect/collect.hpp"
#include "doctor/collect/collect_io.hpp"
#include "doctor/knowledge/gpu_generation.hpp"

namespace p2p::doctor {

namespace {

constexpr std::size_t kConfigSpaceBytes = 4096;

int class_of(const std::string& devices_dir, const std::string& bdf) {
  const auto text = io::read_trimmed(devices_dir + "/" + bdf + "/class");
  if (!text.present()) return 0;
  try {
    return std::stoi(text.value, nullptr, 16);
  } catch (...) {
    return 0;
  }
}

GpudirectReading read_clique(const std::string& devices_dir, const std::string& bdf) {
  GpudirectReading r;
  r.bdf = bdf;
  const auto config = io::read_file(devices_dir + "/" + bdf + "/config", kConfigSpaceBytes);
  if (config.present()) {
    r.capability = topo::read_gpudirect_capability(config.value);
  } else {
    r.capability.state = topo::GpudirectState::kUnreadable;
    r.capability.detail = "config " + std::string(to_string(config.seen)) +
                          (config.error.empty() ? "" : " (" + config.error + ")");
  }
  return r;
}

// The group is the last part of the iommu_group link (".../kernel/iommu_groups/27").
IommuGroup read_group(const std::string& r, const std::string& bdf) {
  const std::string devices = r + "/sys/bus/pci/devices";
  IommuGroup g;
  g.gpu = bdf;
  const auto link = io::read_link(devices + "/" + bdf + "/iommu_group");
  if (!link.present()) return g;
  const std::string name = std::filesystem::path(link.value).filename().string();
  try {
    g.group = std::stoi(name);
  } catch (...) {
    return g;
  }
  const auto members = io::list_dir(r + "/sys/kernel/iommu_groups/" + name + "/devices");
  if (members.present())
    for (const auto& m : members.value) g.members.push_back({m, class_of(devices, m)});
  return g;
}

}  // namespace

VfioFacts collect_vfio(const std::string& root, const Observed<std::vector<PciFunction>>& pci) {
  VfioFacts v;
  if (!pci.present()) return v;  // nothing to look at: both stay not_checked
  const std::string r = io::root_prefix(root);
  v.gpudirect.seen = Seen::kPresent;
  v.iommu_groups.seen = Seen::kPresent;
  for (const auto& p : pci.value) {
    if (!is_gpu_class(p.class_code)) continue;
    v.gpudirect.value.push_back(read_clique(r + "/sys/bus/pci/devices", p.bdf));
    v.iommu_groups.value.push_back(read_group(r, p.bdf));
  }
  return v;
}

}  // namespace p2p::doctor
