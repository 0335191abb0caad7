// One NCCL communicator per selected GPU, all driven from this thread (ncclCommInitAll), each
// with its own stream. The owner of "a hang never hangs the tool": waits poll the streams and
// NCCL's asynchronous error with a deadline, and a clique that missed it is aborted
// (ncclCommAbort), never destroyed, because ncclCommDestroy waits for work that will not end.
// The calls NCCL gives no deadline (init, abort, destroy) run under a HangWatchdog (the
// timeout, but at least 60 s): past it the process reports the hang and exits with kExitHang.
// The constructor also loads p2pcheck's own kernels on every device (see
// preload_verify_kernels) so that no later launch can block behind stuck work.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <vector>

#include "common/cuda_resources.hpp"
#include "nccl/nccl_api.hpp"

namespace p2p::nccl {

class Clique {
 public:
  // Rank r drives CUDA device devices[r]. `timeout` bounds every blocking NCCL call.
  Clique(const NcclApi& api, std::vector<int> devices, std::chrono::duration<double> timeout);
  ~Clique();
  Clique(const Clique&) = delete;
  Clique& operator=(const Clique&) = delete;

  int size() const { return static_cast<int>(devices_.size()); }
  int device(int rank) const { return devices_.at(static_cast<std::size_t>(rank)); }
  ncclComm_t comm(int rank) const { return comms_.at(static_cast<std::size_t>(rank)); }
  cudaStream_t stream(int rank) const { return streams_.at(static_cast<std::size_t>(rank)).get(); }
  const NcclApi& api() const { return api_; }
  bool aborted() const { return aborted_; }

  // Polls every rank's stream (cudaStreamQuery) and communicator (ncclCommGetAsyncError)
  // until all streams are idle: true. When `timeout` passes first, aborts the clique and
  // returns false. An asynchronous NCCL error aborts the clique and throws ApiError.
  bool wait(std::chrono::duration<double> timeout);

  // ncclCommAbort on every communicator; afterwards the clique only owns its streams.
  // Blocks until the device work queued on the streams has drained or quit.
  void abort() noexcept;

 private:
  const NcclApi& api_;
  std::vector<int> devices_;
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
