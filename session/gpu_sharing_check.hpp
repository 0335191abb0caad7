// The sharing check around a measurement (bench/sharing.hpp is its pure part): locks on the
// measured GPUs for the whole run, a look through NVML and the locks before measuring (where
// `--exclusive` may refuse) and another after, and the record for the results document.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/sharing.hpp"
#include "common/gpu_lock.hpp"

namespace p2p::session {

class SharingCheck {
 public:
  // Takes the locks and looks; throws BusyError when `exclusive` and the look found anyone.
  SharingCheck(const std::vector<std::string>& bus_ids, bool exclusive);
  // Looks again (processes this one started count as its own) and returns the record.
  doc::SharingRecord finish();

 private:
  std::vector<bench::GpuActivity> look();
  std::vector<std::string> bus_ids_;
  std::unique_ptr<GpuLocks> locks_;
  std::vector<bench::SharingLook> looks_;
  bool nvml_answered_ = false;
};

// PCI bus ids of the CUDA devices `ordinals` (all of `all_bus_ids` when empty).
std::vector<std::string> measured_bus_ids(const std::vector<std::string>& all_bus_ids,
                                          const std::vector<int>& ordinals);

}  // namespace p2p::session
