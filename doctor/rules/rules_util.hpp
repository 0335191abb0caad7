// Small helpers shared by the rule files. Internal to p2p_doctor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/text.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

inline Finding finding(std::string id, Status status, std::string summary,
                       std::vector<std::string> evidence = {}, std::string hint = "") {
  return Finding{std::move(id), status, std::move(summary), std::move(evidence), std::move(hint)};
}

// At most `keep` items, then "(+N more)": findings stay one line on an 8-GPU host.
inline std::string join_some(const std::vector<std::string>& items, std::size_t keep = 3) {
  if (items.size() <= keep) return join(items);
  std::vector<std::string> head(items.begin(), items.begin() + static_cast<long>(keep));
  return join(head) + " (+" + std::to_string(items.size() - keep) + " more)";
}

// 268435456 -> "256 MiB"; 274877906944 -> "256 GiB".
inline std::string bytes_text(std::uint64_t bytes) {
  constexpr std::uint64_t kMiB = 1024ull * 1024;
  constexpr std::uint64_t kGiB = kMiB * 1024;
  if (bytes >= kGiB && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
  if (bytes >= kMiB) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " B";
}

// The fix for a container the runtime gave no GPU (container_without_gpus): the toolkit injects the
// nodes and the driver libraries only when asked to.
inline std::string container_gpus_fix() {
  return "start the container with its GPUs: docker run --gpus all (or --runtime=nvidia with NVIDIA_VISIBLE_DEVICES, "
         "or CDI --device nvidia.com/gpu=all; Kubernetes: a resources.limits nvidia.com/gpu request), with the "
         "NVIDIA Container Toolkit installed and configured on the host (nvidia-ctk runtime configure)";
}

inline Status worst(Status a, Status b) {
  auto rank = [](Status s) {
    switch (s) {
      case Status::kFail: return 4;
      case Status::kWarn: return 3;
      case Status::kUnknown: return 2;
      case Status::kPass: return 1;
      case Status::kSkip: return 0;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace p2p::doctor
