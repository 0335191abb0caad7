#include "fuzz/input_memory.hpp"

#include <sanitizer/allocator_interface.h>

#include <atomic>

namespace p2p::fuzz {

namespace {

std::atomic<std::size_t> g_live{0};
std::atomic<std::size_t> g_peak{0};

void on_malloc(const volatile void*, std::size_t size) {
  const std::size_t now = g_live.fetch_add(size, std::memory_order_relaxed) + size;
  std::size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void on_free(const volatile void* p) {
  // Called before the memory is freed: its size is still known.
  const std::size_t size = __sanitizer_get_allocated_size(const_cast<const void*>(p));
  g_live.fetch_sub(size, std::memory_order_relaxed);
}

// Installed before main, before libFuzzer runs the first input.
[[maybe_unused]] const int g_installed =
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);

}  // namespace

std::size_t live_bytes() { return g_live.load(std::memory_order_relaxed); }
std::size_t peak_bytes() { return g_peak.load(std::memory_order_relaxed); }
void reset_peak() {
  g_peak.store(g_live.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

}  // namespace p2p::fuzz
