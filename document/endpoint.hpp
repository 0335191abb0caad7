// Where a transfer starts or ends: pinned host memory, one GPU's memory (by CUDA ordinal), or
// "all GPUs" for the totals of contention runs. Pure data; labels are what tables and JSON show.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace p2p::doc {

struct Endpoint {
  enum class Kind { kHost, kGpu, kAll };
  Kind kind = Kind::kHost;
  int gpu = -1;  // CUDA ordinal for kGpu

  static Endpoint host() { return {Kind::kHost, -1}; }
  static Endpoint on_gpu(int ordinal) { return {Kind::kGpu, ordinal}; }
  static Endpoint all() { return {Kind::kAll, -1}; }

  bool is_gpu() const { return kind == Kind::kGpu; }
  bool is_host() const { return kind == Kind::kHost; }
  std::string label() const;  // "host", "gpu0", "all"
  // Stable small number for pattern seeds: host 0xFFFF, all 0xFFFE, GPUs their ordinal.
  std::uint32_t code() const;
};

bool operator==(const Endpoint& a, const Endpoint& b);
bool operator!=(const Endpoint& a, const Endpoint& b);
// Table order: host, gpu0, gpu1, ..., all.
bool operator<(const Endpoint& a, const Endpoint& b);

// Inverse of label(); nullopt for anything else.
std::optional<Endpoint> endpoint_from_label(const std::string& label);

}  // namespace p2p::doc
