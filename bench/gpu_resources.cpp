#include "bench/gpu_resources.hpp"

#include <atomic>
#include <thread>

#include "common/error.hpp"

namespace p2p::bench {

Buffer Buffer::allocate(const Endpoint& where, std::size_t bytes) {
  Buffer b;
  if (where.is_gpu()) {
    b.device_ = cuda::make_device_buffer(where.gpu, bytes);
  } else {
    b.host_ = cuda::make_pinned_host(bytes, cudaHostAllocPortable | cudaHostAllocMapped);
  }
  return b;
}

Latch::Latch()
    : memory_(cuda::make_pinned_host(sizeof(kernels::LatchWords),
                                     cudaHostAllocPortable | cudaHostAllocMapped)),
      words_(static_cast<kernels::LatchWords*>(memory_.get())) {
  arm();
}

Latch::~Latch() {
  if (words_ != nullptr) release();
}

void Latch::arm() {
  words_->release = 0;
  words_->timed_out = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void Latch::hold(cudaStream_t stream, std::uint64_t timeout_ns) {
  kernels::launch_latch(words_, timeout_ns, stream);
}

void Latch::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  words_->release = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

bool Latch::timed_out() const { return words_->timed_out != 0; }

Deadline deadline_after(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

void wait_until_done(cudaStream_t stream, Deadline deadline, const std::string& what) {
  while (true) {
    const cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess) return;
    if (e != cudaErrorNotReady) P2P_CHECK(e);
    if (std::chrono::steady_clock::now() > deadline) {
      throw HangError(what + " did not finish before its deadline");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

}  // namespace p2p::bench
