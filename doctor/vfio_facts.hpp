// What the doctor records about VFIO pass-through, on both sides of it:
//   in a guest, each GPU's GPUDirect clique capability (the hypervisor's virtual P2P approval,
//   read from the GPU's config space), which decides whether the guest driver offers P2P;
//   on a host (or an LXC container on it), each GPU's IOMMU group and who else is in it, since
//   VFIO hands a VM whole groups.
// Added to facts version 1 later: a document without the "vfio" key checked neither (not_checked).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "doctor/observed.hpp"
#include "topology/gpudirect_capability.hpp"

namespace p2p::doctor {

struct GpudirectReading {
  std::string bdf;  // "0000:01:00.0"
  topo::GpudirectCapability capability;
};

struct IommuGroupMember {
  std::string bdf;
  int class_code = 0;  // 0x060400 for a bridge, 0x040300 for a GPU's audio function
};

struct IommuGroup {
  std::string gpu;                        // the GPU whose group this is
  std::optional<int> group;               // null: the GPU is in no group (no IOMMU)
  std::vector<IommuGroupMember> members;  // every device of the group, the GPU included
};

struct VfioFacts {
  Observed<std::vector<GpudirectReading>> gpudirect;
  Observed<std::vector<IommuGroup>> iommu_groups;
  bool checked() const;  // either part was looked at
};

// {"gpudirect": <observed list>, "iommu_groups": <observed list>}. The reader is strict and
// refuses a clique ID outside 0-15, naming the key.
nlohmann::json vfio_to_json(const VfioFacts& v);
VfioFacts vfio_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace p2p::doctor
