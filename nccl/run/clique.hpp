// The ranks of one NCCL communicator that live in this process, all driven from this thread,
// each with its own stream: every rank (one per selected GPU, ncclCommInitAll), or some ranks
// of a communicator whose other ranks are other processes (ncclCommInitRank). Ranks are the
// communicator's; `local_ranks()` says which of them this process drives, and every per-rank
// loop of the measurement runs over those only. The owner of "a hang never hangs the tool": waits
// poll the streams and NCCL's asynchronous error with a deadline, and a clique that missed it is
// aborted (ncclCommAbort), never destroyed, because ncclCommDestroy waits for work that will not
// end. The calls NCCL gives no deadline (init, abort, destroy) run under a HangWatchdog (the
// timeout, but at least 60 s): past it the process reports the hang and exits with kExitHang.
// The constructor also loads p2pcheck's own kernels on every device (see
// preload_verify_kernels) so that no later launch can block behind stuck work.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <vector>

#include "common/cuda_resources.hpp"
#include "nccl/run/nccl_api.hpp"

namespace p2p::nccl {

// Process-wide and async-signal-safe: after request_stop() every Clique::wait aborts its clique
// and returns false at once. A rank process calls it from its SIGTERM handler, which the parent
// sends when another rank process has ended: the survivors abort their communicators
// (ncclCommAbort) now instead of waiting out their deadlines for a peer that is gone.
void request_stop() noexcept;
bool stop_requested() noexcept;

class Clique {
 public:
  // Every rank local: rank r drives CUDA device devices[r]. `timeout` bounds every blocking
  // NCCL call.
  Clique(const NcclApi& api, std::vector<int> devices, std::chrono::duration<double> timeout);
  // Ranks `ranks` of `nranks`, rank ranks[k] on devices[k]; the other ranks join with the same
  // `id` from their own processes (ncclCommInitRank, one per local GPU inside one group as
  // NCCL requires when a thread joins several ranks; it returns once every rank has joined).
  Clique(const NcclApi& api, std::vector<int> ranks, int nranks, std::vector<int> devices,
         const ncclUniqueId& id, std::chrono::duration<double> timeout);
  ~Clique();
  Clique(const Clique&) = delete;
  Clique& operator=(const Clique&) = delete;

  int size() const { return nranks_; }  // ranks of the communicator, local or not
  const std::vector<int>& local_ranks() const { return local_ranks_; }
  // Index of a local rank in local_ranks() (and in RankBuffers); std::out_of_range otherwise.
  std::size_t slot(int rank) const;
  bool is_local(int rank) const;
  // The ranks of `ranks` this process drives, in the same order.
  std::vector<int> local_of(const std::vector<int>& ranks) const;
  // Local ranks only.
  int device(int rank) const { return devices_.at(slot(rank)); }
  ncclComm_t comm(int rank) const { return comms_.at(slot(rank)); }
  cudaStream_t stream(int rank) const { return streams_.at(slot(rank)).get(); }
  const NcclApi& api() const { return api_; }
  bool aborted() const { return aborted_; }

  // Polls every local rank's stream (cudaStreamQuery) and communicator (ncclCommGetAsyncError)
  // until all streams are idle: true. When `timeout` passes first, or a stop was requested
  // (request_stop), aborts the clique and returns false. An asynchronous NCCL error aborts the
  // clique and throws ApiError.
  bool wait(std::chrono::duration<double> timeout);

  // ncclCommAbort on every local communicator; afterwards the clique only owns its streams.
  // Blocks until the device work queued on the streams has drained or quit.
  void abort() noexcept;

 private:
  void make_streams();

  const NcclApi& api_;
  int nranks_ = 0;
  std::vector<int> local_ranks_;
  std::vector<int> devices_;               // per local rank
  std::chrono::duration<double> timeout_;  // for init, abort and destroy
  std::vector<cuda::Stream> streams_;
  std::vector<ncclComm_t> comms_;
  bool aborted_ = false;
};

// ncclGroupStart/End as a scope: the group is closed even when a call inside it throws
// (finish() reports ncclGroupEnd's own result; the destructor only closes).
class NcclGroup {
 public:
  explicit NcclGroup(const NcclApi& api);
  ~NcclGroup();
  NcclGroup(const NcclGroup&) = delete;
  NcclGroup& operator=(const NcclGroup&) = delete;
  void finish();

 private:
  const NcclApi& api_;
  bool open_ = true;
};

}  // namespace p2p::nccl
