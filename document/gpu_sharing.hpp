// Was the GPU ours alone while we measured? The record a results document keeps of it (key
// "gpu_sharing"; results/README.md documents it). bench/sharing.hpp decides it from what NVML
// and the lock files of common/gpu_lock showed before and after measuring.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace p2p::doc {

// In the results document, key "gpu_sharing"; null in documents of versions that did not look.
struct SharingRecord {
  bool shared = false;
  std::vector<std::string> checked;  // what looked: "nvml", "locks"
  std::vector<std::string> notes;    // every finding, before and after
  std::vector<long> other_pids;      // ascending
};

void to_json(nlohmann::json& j, const SharingRecord& r);
void from_json(const nlohmann::json& j, SharingRecord& r);

}  // namespace p2p::doc
