// Was the GPU ours alone while we measured? The record a results document keeps of it (key
// "gpu_sharing"; results/README.md documents it). bench/sharing.hpp decides it from what NVML
// and the lock files of common/gpu_lock showed before and after measuring.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
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

// What NVML and the lock files showed of one GPU, before or after measuring: the input of the
// sharing check (bench/sharing.hpp), gathered by the doctor's probe in a child process.
struct GpuProcess {
  long pid = 0;
  std::string kind;  // "compute" | "graphics" (NVML's two lists)
  std::string name;  // /proc/PID/comm where readable, else ""
  std::optional<std::uint64_t> used_bytes;
};

// One look at one GPU.
struct GpuActivity {
  std::string pci_bus_id;
  bool nvml = false;                       // NVML answered for this GPU (processes and utilisation)
  std::vector<GpuProcess> processes;       // every process NVML lists, our own included
  std::optional<int> utilization_percent;  // nvmlDeviceGetUtilizationRates().gpu
  std::vector<long> p2pcheck_runs;         // pids of the other p2pcheck runs holding a lock on it
};

void to_json(nlohmann::json& j, const SharingRecord& r);
void from_json(const nlohmann::json& j, SharingRecord& r);
void to_json(nlohmann::json& j, const GpuProcess& p);
void from_json(const nlohmann::json& j, GpuProcess& p);
void to_json(nlohmann::json& j, const GpuActivity& g);
void from_json(const nlohmann::json& j, GpuActivity& g);

}  // namespace p2p::doc
