#include "nccl/run/clique.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/hang_watchdog.hpp"
#include "nccl/run/verify_kernels.hpp"

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
    : api_(api),
      nranks_(static_cast<int>(devices.size())),
      devices_(std::move(devices)),
      timeout_(std::max(timeout, kSetupDeadlineFloor)) {
  for (int r = 0; r < nranks_; ++r) local_ranks_.push_back(r);
  make_streams();
  comms_.assign(devices_.size(), nullptr);
  HangWatchdog deadline(on_gpus("ncclCommInitAll", size()), timeout_);
  P2P_CHECK(api_.comm_init_all(comms_.data(), size(), devices_.data()));
}

Clique::Clique(const NcclApi& api, std::vector<int> ranks, int nranks, std::vector<int> devices,
               const ncclUniqueId& id, std::chrono::duration<double> timeout)
    : api_(api),
      nranks_(nranks),
      local_ranks_(std::move(ranks)),
      devices_(std::move(devices)),
      timeout_(std::max(timeout, kSetupDeadlineFloor)) {
  if (local_ranks_.empty() || local_ranks_.size() != devices_.size()) {
    throw std::invalid_argument("Clique: " + std::to_string(local_ranks_.size()) + " ranks for " +
                                std::to_string(devices_.size()) + " devices");
  }
  make_streams();
  comms_.assign(local_ranks_.size(), nullptr);
  std::string which;
  for (int r : local_ranks_) which += (which.empty() ? "" : ",") + std::to_string(r);
  HangWatchdog deadline("ncclCommInitRank (rank" +
                            std::string(local_ranks_.size() == 1 ? " " : "s ") + which + " of " +
                            std::to_string(nranks) + ")",
                        timeout_);
  NcclGroup group(api_);
  for (std::size_t k = 0; k < local_ranks_.size(); ++k) {
    cuda::DeviceGuard on(
        devices_[k]);  // ncclCommInitRank binds the communicator to the current device
    P2P_CHECK(api_.comm_init_rank(&comms_[k], nranks, id, local_ranks_[k]));
  }
  group.finish();
}

void Clique::make_streams() {
  for (int d : devices_) {
    streams_.push_back(cuda::make_stream(d));
    cuda::DeviceGuard on(d);
    preload_verify_kernels();  // before any NCCL work exists that could get stuck
  }
}

std::size_t Clique::slot(int rank) const {
  for (std::size_t k = 0; k < local_ranks_.size(); ++k) {
    if (local_ranks_[k] == rank) return k;
  }
  throw std::out_of_range("rank " + std::to_string(rank) + " is not driven by this process");
}

bool Clique::is_local(int rank) const {
  return std::find(local_ranks_.begin(), local_ranks_.end(), rank) != local_ranks_.end();
}

std::vector<int> Clique::local_of(const std::vector<int>& ranks) const {
  std::vector<int> out;
  for (int r : ranks) {
    if (is_local(r)) out.push_back(r);
  }
  return out;
}

Clique::~Clique() {
  if (aborted_) return;
  // Destroy only a quiet clique: ncclCommDestroy on a communicator with work in flight or an
  // asynchronous error can wait forever.
  bool quiet = true;
  for (std::size_t k = 0; k < comms_.size() && quiet; ++k) {
    ncclResult_t async = ncclSuccess;
    if (cudaStreamQuery(streams_[k].get()) != cudaSuccess) quiet = false;
    if (api_.comm_get_async_error(comms_[k], &async) != ncclSuccess || async != ncclSuccess)
      quiet = false;
  }
  if (!quiet) {
    abort();
    return;
  }
  HangWatchdog deadline(on_gpus("ncclCommDestroy", static_cast<int>(comms_.size())), timeout_);
  for (ncclComm_t c : comms_) {
    const ncclResult_t r = api_.comm_destroy(c);
    if (r != ncclSuccess)
      std::fprintf(stderr, "p2pcheck: warning: ncclCommDestroy failed: %s\n", nccl_result_name(r));
  }
}

namespace {
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free,
              "request_stop() is called from a signal handler");
}  // namespace

void request_stop() noexcept { g_stop.store(true, std::memory_order_relaxed); }
bool stop_requested() noexcept { return g_stop.load(std::memory_order_relaxed); }

bool Clique::wait(std::chrono::duration<double> timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<bool> done(comms_.size(), false);
  std::size_t remaining = comms_.size();
  while (remaining > 0) {
    for (std::size_t k = 0; k < comms_.size(); ++k) {
      if (done[k]) continue;
      const cudaError_t q = cudaStreamQuery(streams_[k].get());
      if (q == cudaSuccess) {
        done[k] = true;
        --remaining;
        continue;
      }
      if (q != cudaErrorNotReady) P2P_CHECK(q);
      ncclResult_t async = ncclSuccess;
      P2P_CHECK(api_.comm_get_async_error(comms_[k], &async));
      if (async != ncclSuccess && async != ncclInProgress) {
        abort();
        P2P_CHECK(async);
      }
    }
    if (remaining == 0) break;
    if (std::chrono::steady_clock::now() > deadline || stop_requested()) {
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
  HangWatchdog deadline(on_gpus("ncclCommAbort", static_cast<int>(comms_.size())), timeout_);
  for (ncclComm_t c : comms_) {
    const ncclResult_t r = api_.comm_abort(c);
    if (r != ncclSuccess)
      std::fprintf(stderr, "p2pcheck: warning: ncclCommAbort failed: %s\n", nccl_result_name(r));
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
