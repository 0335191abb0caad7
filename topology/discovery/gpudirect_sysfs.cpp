#include "topology/discovery/gpudirect_sysfs.hpp"

#include "common/file_io.hpp"

namespace p2p::topo {

namespace {

constexpr std::size_t kConfigSpaceBytes = 4096;  // PCIe extended config space

}  // namespace

std::vector<GpudirectCapability> read_gpudirect_from_sysfs(const std::string& sys_root,
                                                           const std::vector<Gpu>& gpus) {
  std::vector<GpudirectCapability> out;
  for (const Gpu& g : gpus) {
    const std::string path = sys_root + "/bus/pci/devices/" + g.pci_bus_id + "/config";
    const auto config =
        g.pci_bus_id.empty() ? std::nullopt : try_read_text_file(path, kConfigSpaceBytes);
    if (config) {
      out.push_back(read_gpudirect_capability(*config));
    } else {
      GpudirectCapability c;
      c.state = GpudirectState::kUnreadable;
      c.detail = "cannot read " + path;
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace p2p::topo
