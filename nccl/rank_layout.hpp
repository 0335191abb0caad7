// NCCL ranks across MPI processes and hosts, as nccl-tests numbers them: every process drives
// one or more local GPUs, and the ranks are handed out in process order, so a process's
// first rank is the sum of the GPU counts of the processes before it. Pure, so the CPU tests
// check every layout without MPI or a GPU.
//
// A rank's host is what NCCL itself takes for one: NCCL_HOSTID where the process sets it, else
// the host name. So `NCCL_HOSTID=h<rank>` on one machine makes every process a host of its
// own, as NCCL then treats it (the tests run "hosts" this way on one GPU).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace p2p::nccl {

// What one process says about itself before the communicator forms.
struct ProcessSlot {
  int process = 0;           // MPI rank
  std::string hostname;      // gethostname()
  std::string host_id;       // NCCL_HOSTID it runs with; "" = unset
  std::vector<int> devices;  // its local CUDA devices, in the order of its ranks
  int first_rank = 0;        // filled in by lay_out_ranks
};

struct RankLayout {
  int nranks = 0;
  std::vector<ProcessSlot> processes;  // by MPI rank
  std::vector<std::string> hosts;      // host keys, in order of their first rank
  std::vector<int> rank_process;       // per NCCL rank: its MPI rank
  std::vector<int> rank_host;          // per NCCL rank: index into `hosts`
};

// host_id when set, else hostname.
std::string host_key(const ProcessSlot& p);

// `processes` must be by MPI rank (0..n-1). InputError naming the process for one without any
// device, or for a list out of order.
RankLayout lay_out_ranks(std::vector<ProcessSlot> processes);

// The MPI ranks that drive any of `ranks`, ascending, each once.
std::vector<int> processes_of(const RankLayout& layout, const std::vector<int>& ranks);

// The NCCL ranks a process drives, ascending.
std::vector<int> ranks_of_process(const RankLayout& layout, int process);

// Per host (index into layout.hosts), the lowest NCCL rank on it: the rank that represents the
// host in the host-pair matrix.
std::vector<int> host_representatives(const RankLayout& layout);

// The device of a process that drives one GPU (--rank-per-gpu): the requested device list
// indexed by the launcher's local rank, or the local rank itself when no list is given.
// InputError when the local rank is unknown or names a device that is not there.
int device_for_local_rank(std::optional<int> local_rank, const std::vector<int>& requested,
                          int visible_devices);

}  // namespace p2p::nccl
