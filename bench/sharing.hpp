// Was the GPU ours alone while we measured? Figures taken while another process computed or
// drew on the same GPU, or while another p2pcheck run measured it, are not the link's figures.
// This file is the pure part: what was seen (by NVML and the lock files of common/gpu_lock)
// goes in, the verdict and the document's record come out. results/README.md ("gpu_sharing")
// documents the record.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "document/gpu_sharing.hpp"

namespace p2p::bench {

using doc::SharingRecord;

using doc::GpuActivity;
using doc::GpuProcess;

// Utilisation at or above this, before we start, counts as busy even when no process is
// visible (another container's, whose pids NVML does not show here).
constexpr int kBusyUtilizationPercent = 10;

// What one look found that was not ours: one note per finding, and the other pids.
struct SharingLook {
  std::vector<std::string> notes;  // "before: 0000:41:00.0: pid 4242 (python3, compute, 1GiB)"
  std::set<long> pids;
  bool busy() const { return !notes.empty(); }
};

// `when`: "before" or "after" measuring. Utilisation is judged only before: after, the load
// is our own. `own`: this process and the processes it started (rank processes).
SharingLook look_for_sharing(const std::vector<GpuActivity>& gpus, const std::set<long>& own,
                             const std::string& when);

// The record of a run from its looks (before, after).
doc::SharingRecord sharing_record(const std::vector<SharingLook>& looks, bool nvml_answered,
                                  bool locks_held);

// The one line `--exclusive` refuses with ("GPU 0000:41:00.0 is in use by pid 4242
// (python3, compute)"), built from the first note of the look before measuring.
std::string exclusive_refusal(const SharingLook& before);

}  // namespace p2p::bench
