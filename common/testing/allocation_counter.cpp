#include "common/testing/allocation_counter.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace p2p::testing {

namespace {

std::atomic<bool> g_counting{false};
std::atomic<std::size_t> g_allocations{0};
std::atomic<std::size_t> g_live{0};  // bytes held by every allocation since the process began
std::atomic<std::size_t> g_start{0};
std::atomic<std::size_t> g_peak{0};

void note_allocation(void* p) {
  const std::size_t size = ::malloc_usable_size(p);
  const std::size_t now = g_live.fetch_add(size) + size;
  if (!g_counting.load(std::memory_order_relaxed)) return;
  g_allocations.fetch_add(1);
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}

void* allocate(std::size_t size, std::size_t alignment) {
  void* p = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    p = std::malloc(size == 0 ? 1 : size);
  } else if (::posix_memalign(&p, alignment, size == 0 ? alignment : size) != 0) {
    p = nullptr;
  }
  if (p == nullptr) return nullptr;
  note_allocation(p);
  return p;
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  g_live.fetch_sub(::malloc_usable_size(p));
  std::free(p);
}

void* allocate_or_throw(std::size_t size, std::size_t alignment) {
  void* p = allocate(size, alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

CountAllocations::CountAllocations() {
  g_allocations.store(0);
  g_start.store(g_live.load());
  g_peak.store(g_live.load());
  g_counting.store(true);
}

CountAllocations::~CountAllocations() { g_counting.store(false); }

AllocationCounts CountAllocations::counts() const {
  const std::size_t peak = g_peak.load(), start = g_start.load();
  return {g_allocations.load(), peak > start ? peak - start : 0};
}

}  // namespace p2p::testing

// The replaceable global allocation functions ([new.delete]), every form, through the counter.
void* operator new(std::size_t n) { return p2p::testing::allocate_or_throw(n, 0); }
void* operator new[](std::size_t n) { return p2p::testing::allocate_or_throw(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) {
  return p2p::testing::allocate_or_throw(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return p2p::testing::allocate_or_throw(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return p2p::testing::allocate(n, 0);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return p2p::testing::allocate(n, 0);
}
void operator delete(void* p) noexcept { p2p::testing::release(p); }
void operator delete[](void* p) noexcept { p2p::testing::release(p); }
void operator delete(void* p, std::size_t) noexcept { p2p::testing::release(p); }
void operator delete[](void* p, std::size_t) noexcept { p2p::testing::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { p2p::testing::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { p2p::testing::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { p2p::testing::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  p2p::testing::release(p);
}
