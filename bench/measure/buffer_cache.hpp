// Keeps memory a figure gave back for the next figure that needs as much, within a byte budget.
//
// Why: pinning host memory costs far more than moving it. On the H200 host (a KVM guest),
// cudaHostAlloc of 512 MiB took 165-177 ms and cudaFreeHost 44 ms, where copying the same 512 MiB
// to the GPU took 10 ms. Each host figure used to pin and unpin its own buffers: a third of
// `bench`'s time went to the kernel pinning pages. With this cache a run pins each size about
// once.
//
// Pure bookkeeping over any movable memory type (bench uses pinned host memory; the tests use
// heap blocks), so it is tested on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace p2p::bench {

template <class Memory>
class BufferCache : public std::enable_shared_from_this<BufferCache<Memory>> {
 public:
  using Make = std::function<Memory(std::size_t bytes)>;

  // An exclusive hold on one block of at least the bytes asked for; the block goes back to the
  // cache when the lease ends.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&& o) noexcept {
      if (this != &o) {
        give_back();
        cache_ = std::move(o.cache_);
        bytes_ = o.bytes_;
        memory_ = std::move(o.memory_);
      }
      return *this;
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { give_back(); }

    Memory& memory() { return *memory_; }
    const Memory& memory() const { return *memory_; }
    std::size_t bytes() const { return bytes_; }  // the block's size: at least what was asked

   private:
    friend class BufferCache;
    Lease(std::shared_ptr<BufferCache> cache, std::size_t bytes, Memory memory)
        : cache_(std::move(cache)), bytes_(bytes), memory_(std::move(memory)) {}
    void give_back() {
      if (cache_ && memory_) cache_->give_back(bytes_, std::move(*memory_));
      memory_.reset();
      cache_.reset();
    }
    std::shared_ptr<BufferCache> cache_;
    std::size_t bytes_ = 0;
    std::optional<Memory> memory_;
  };

  // `budget_bytes`: what leased and kept blocks may hold together before kept ones are freed
  // (a single lease larger than the budget is still made; it is freed when given back).
  static std::shared_ptr<BufferCache> create(std::size_t budget_bytes, Make make) {
    return std::shared_ptr<BufferCache>(new BufferCache(budget_bytes, std::move(make)));
  }

  // The smallest kept block of at least `bytes`, else a new block of exactly `bytes`, made after
  // freeing kept blocks, oldest first, as far as the budget needs.
  Lease take(std::size_t bytes) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      if (kept_[i].bytes >= bytes && (!best || kept_[i].bytes < kept_[*best].bytes)) best = i;
    }
    if (best) {
      Kept k = std::move(kept_[*best]);
      kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(*best));
      kept_bytes_ -= k.bytes;
      leased_bytes_ += k.bytes;
      return Lease(this->shared_from_this(), k.bytes, std::move(k.memory));
    }
    while (!kept_.empty() && kept_bytes_ + leased_bytes_ + bytes > budget_bytes_) free_oldest();
    Memory m = make_(bytes);
    ++made_;
    leased_bytes_ += bytes;
    return Lease(this->shared_from_this(), bytes, std::move(m));
  }

  // Frees every kept block now (a run ends: pinned memory must go before the CUDA context does).
  // Blocks still leased are kept when they come back, within the budget.
  void clear() {
    kept_.clear();
    kept_bytes_ = 0;
  }

  std::size_t kept_bytes() const { return kept_bytes_; }
  std::size_t leased_bytes() const { return leased_bytes_; }
  std::size_t blocks_made() const { return made_; }

 private:
  struct Kept {
    std::size_t bytes;
    std::uint64_t order;  // when it came back: the oldest goes first
    Memory memory;
  };

  BufferCache(std::size_t budget_bytes, Make make)
      : budget_bytes_(budget_bytes), make_(std::move(make)) {}

  void give_back(std::size_t bytes, Memory m) {
    leased_bytes_ -= bytes;
    if (kept_bytes_ + leased_bytes_ + bytes > budget_bytes_) return;  // m is freed here
    kept_.push_back(Kept{bytes, next_order_++, std::move(m)});
    kept_bytes_ += bytes;
  }

  void free_oldest() {
    std::size_t oldest = 0;
    for (std::size_t i = 1; i < kept_.size(); ++i) {
      if (kept_[i].order < kept_[oldest].order) oldest = i;
    }
    kept_bytes_ -= kept_[oldest].bytes;
    kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(oldest));
  }

  std::size_t budget_bytes_;
  Make make_;
  std::vector<Kept> kept_;
  std::size_t kept_bytes_ = 0;
  std::size_t leased_bytes_ = 0;
  std::size_t made_ = 0;
  std::uint64_t next_order_ = 0;
};

}  // namespace p2p::bench
