#include "nccl/rank_layout.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace p2p::nccl {

std::string host_key(const ProcessSlot& p) { return p.host_id.empty() ? p.hostname : p.host_id; }

RankLayout lay_out_ranks(std::vector<ProcessSlot> processes) {
  RankLayout out;
  int next = 0;
  for (std::size_t k = 0; k < processes.size(); ++k) {
    ProcessSlot& p = processes[k];
    if (p.process != static_cast<int>(k)) {
      throw InputError("MPI process " + std::to_string(p.process) + " reported in place " +
                       std::to_string(k));
    }
    if (p.devices.empty()) {
      throw InputError("MPI process " + std::to_string(p.process) + " on " + p.hostname +
                       " has no GPU to run on");
    }
    p.first_rank = next;
    const std::string key = host_key(p);
    auto host = std::find(out.hosts.begin(), out.hosts.end(), key);
    if (host == out.hosts.end()) host = out.hosts.insert(out.hosts.end(), key);
    for (std::size_t d = 0; d < p.devices.size(); ++d) {
      out.rank_process.push_back(p.process);
      out.rank_host.push_back(static_cast<int>(host - out.hosts.begin()));
    }
    next += static_cast<int>(p.devices.size());
  }
  out.nranks = next;
  out.processes = std::move(processes);
  return out;
}

std::vector<int> processes_of(const RankLayout& layout, const std::vector<int>& ranks) {
  std::vector<int> out;
  for (int r : ranks) out.push_back(layout.rank_process.at(static_cast<std::size_t>(r)));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> ranks_of_process(const RankLayout& layout, int process) {
  const ProcessSlot& p = layout.processes.at(static_cast<std::size_t>(process));
  std::vector<int> out;
  for (std::size_t d = 0; d < p.devices.size(); ++d)
    out.push_back(p.first_rank + static_cast<int>(d));
  return out;
}

std::vector<int> host_representatives(const RankLayout& layout) {
  std::vector<int> out(layout.hosts.size(), -1);
  for (int r = 0; r < layout.nranks; ++r) {
    int& rep = out[static_cast<std::size_t>(layout.rank_host[static_cast<std::size_t>(r)])];
    if (rep < 0) rep = r;
  }
  return out;
}

int device_for_local_rank(std::optional<int> local_rank, const std::vector<int>& requested,
                          int visible_devices) {
  if (!local_rank) {
    throw InputError(
        "--rank-per-gpu: the launcher set no local rank (OMPI_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, "
        "MPI_LOCALRANKID or PMIX_LOCAL_RANK)");
  }
  const int local = *local_rank;
  if (!requested.empty()) {
    if (local >= static_cast<int>(requested.size())) {
      throw InputError("--rank-per-gpu: local rank " + std::to_string(local) +
                       " has no entry in --gpus (" + std::to_string(requested.size()) + " listed)");
    }
    const int device = requested[static_cast<std::size_t>(local)];
    if (device < 0 || device >= visible_devices) {
      throw InputError("--gpus: device " + std::to_string(device) + " does not exist (" +
                       std::to_string(visible_devices) + " visible)");
    }
    return device;
  }
  if (local >= visible_devices) {
    throw InputError("--rank-per-gpu: local rank " + std::to_string(local) + " but only " +
                     std::to_string(visible_devices) +
                     " GPU(s) visible: start at most one task per GPU, or name them "
                     "with --gpus");
  }
  return local;
}

}  // namespace p2p::nccl
