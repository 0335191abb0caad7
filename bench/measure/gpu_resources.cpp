#include "bench/measure/gpu_resources.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>

#include "common/error.hpp"

namespace p2p::bench {

RegisteredHostMemory RegisteredHostMemory::allocate(std::size_t bytes) {
  constexpr std::size_t kHuge = 2u << 20;
  RegisteredHostMemory m;
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + kHuge - 1) / kHuge * kHuge;
  m.mapping_bytes_ = rounded + kHuge;  // room to start on a 2 MiB boundary
  void* p =
      mmap(nullptr, m.mapping_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) P2P_CHECK_POSIX(-1);
  m.mapping_ = p;
  const auto base = reinterpret_cast<std::uintptr_t>(p);
  m.aligned_ = reinterpret_cast<void*>((base + kHuge - 1) / kHuge * kHuge);
  // Advice only: where transparent huge pages are off this is plain 4 KiB memory.
  madvise(m.aligned_, rounded, MADV_HUGEPAGE);
  std::memset(m.aligned_, 0, rounded);  // fault the pages in now, huge where the kernel can
  P2P_CHECK(
      cudaHostRegister(m.aligned_, rounded, cudaHostRegisterPortable | cudaHostRegisterMapped));
  m.registered_ = true;
  return m;
}

RegisteredHostMemory::~RegisteredHostMemory() { reset(); }

RegisteredHostMemory::RegisteredHostMemory(RegisteredHostMemory&& o) noexcept {
  *this = std::move(o);
}

RegisteredHostMemory& RegisteredHostMemory::operator=(RegisteredHostMemory&& o) noexcept {
  if (this != &o) {
    reset();
    mapping_ = o.mapping_;
    mapping_bytes_ = o.mapping_bytes_;
    aligned_ = o.aligned_;
    registered_ = o.registered_;
    o.mapping_ = nullptr;
    o.aligned_ = nullptr;
    o.registered_ = false;
  }
  return *this;
}

void RegisteredHostMemory::reset() noexcept {
  if (registered_) log_if_failed(cudaHostUnregister(aligned_), "cudaHostUnregister");
  if (mapping_ != nullptr) munmap(mapping_, mapping_bytes_);
  mapping_ = nullptr;
  aligned_ = nullptr;
  registered_ = false;
}

std::shared_ptr<PinnedHostCache> make_pinned_host_cache(std::size_t budget_bytes) {
  return PinnedHostCache::create(budget_bytes, [](std::size_t bytes) {
    return cuda::make_pinned_host(bytes, cudaHostAllocPortable | cudaHostAllocMapped);
  });
}

Buffer Buffer::allocate(const Endpoint& where, std::size_t bytes, HostMemory host, int device,
                        const std::shared_ptr<PinnedHostCache>& cache) {
  Buffer b;
  if (where.is_gpu()) {
    b.device_ = cuda::make_device_buffer(device >= 0 ? device : where.gpu, bytes);
  } else if (host == HostMemory::kHugePages) {
    b.registered_ = RegisteredHostMemory::allocate(bytes);
  } else if (cache) {
    b.leased_ = cache->take(bytes);
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
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
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
