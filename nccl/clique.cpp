#include "nccl/clique.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "common/hang_watchdog.hpp"
#include "nccl/verify_kernels.hpp"

namespace p2p::nccl {

namespace {

// NCCL's setup and teardown get at least this long, whatever --timeout says for one
// operation: initialising many GPUs, or aborting behind a long kernel, legitimately takes
// seconds, and the deadline is there for calls that would otherwise never return.
constexpr std::chrono::duration<double> kSetupDeadlineFloor{60.0};

std::string on_gpus(const char* call, int n) {
  return std::string(call) + " on " + std::to_string(n) + " GPU" + (n == 1 ? "" : "s");
}

}  // namespace

Clique::Clique(const NcclApi& api, std::vector<int> devices, std::chrono::duration<double> timeout)
    : api_(api), devices_(std::move(devices)), timeout_(std::max(timeout, kSetupDeadlineFloor)) {
  for (int d : devices_) {
    streams_.push_back(cuda::make_stream(d));
    cuda::DeviceGuard on(d);
    preload_verify_kernels();  // before any NCCL work exists that could get stuck
  }
  comms_.assign(devices_.size(), nullptr);
  HangWatchdog deadline(on_gpus("ncclCommInitAll", size()), timeout_);
  P2P_CHECK(api_.comm_init_all(comms_.data(), size(), devices_.data()));
}

Clique::~Clique() {
  if (aborted_) return;
  // Destroy only a quiet clique: ncclCommDestroy on a communicator with work in flight or an
  // asynchronous error can wait forever.
  bool quiet = true;
  for (int r = 0; r < size() && quiet; ++r) {
    ncclResult_t async = ncclSuccess;
    if (cudaStreamQuery(stream(r)) != cudaSuccess) quiet = false;
    if (api_.comm_get_async_error(comm(r), &async) != ncclSuccess || async != ncclSuccess) quiet = false;
  }
  if (!quiet) {
    abort();
    return;
  }
  HangWatchdog deadline(on_gpus("ncclCommDestroy", size()), timeout_);
  for (ncclComm_t c : comms_) {
    const ncclResult_t r = api_.comm_destroy(c);
    if (r != ncclSuccess) std::fprintf(stderr, "p2pcheck: warning: ncclCommDestroy failed: %s\n", nccl_result_name(r));
  }
}

bool Clique::wait(std::chrono::duration<double> timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<bool> done(static_cast<std::size_t>(size()), false);
  int remaining = size();
  while (remaining > 0) {
    for (int r = 0; r < size(); ++r) {
      if (done[static_cast<std::size_t>(r)]) continue;
      const cudaError_t q = cudaStreamQuery(stream(r));
      if (q == cudaSuccess) {
        done[static_cast<std::size_t>(r)] = true;
        --remaining;
        continue;
      }
      if (q != cudaErrorNotReady) P2P_CHECK(q);
      ncclResult_t async = ncclSuccess;
      P2P_CHECK(api_.comm_get_async_error(comm(r), &async));
      if (async != ncclSuccess && async != ncclInProgress) {
        abort();
        P2P_CHECK(async);
      }
    }
    if (remaining == 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      abort();
      return false;
    }
    // Timing comes from CUDA events, so a short sleep costs no accuracy and frees the core
    // NCCL's proxy threads run on.
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  return true;
}

void Clique::abort() noexcept {
  if (aborted_) return;
  aborted_ = true;
  HangWatchdog deadline(on_gpus("ncclCommAbort", size()), timeout_);
  for (ncclComm_t c : comms_) {
    const ncclResult_t r = api_.comm_abort(c);
    if (r != ncclSuccess) std::fprintf(stderr, "p2pcheck: warning: ncclCommAbort failed: %s\n", nccl_result_name(r));
  }
}

NcclGroup::NcclGroup(const NcclApi& api) : api_(api) { P2P_CHECK(api_.group_start()); }

NcclGroup::~NcclGroup() {
  if (open_) api_.group_end();
}

void NcclGroup::finish() {
  open_ = false;
  P2P_CHECK(api_.group_end());
}

}  // namespace p2p::nccl
