#include "bench/measure/buffer_cache.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace p2p::bench {
namespace {

constexpr std::size_t kMiB = 1u << 20;

// Heap blocks stand in for pinned memory; `live` counts the blocks not yet freed.
struct Block {
  std::shared_ptr<int> live;
  std::size_t bytes = 0;
  std::unique_ptr<char[]> data;
};

struct Blocks {
  std::shared_ptr<int> live = std::make_shared<int>(0);
  std::vector<std::size_t> made;
  std::shared_ptr<BufferCache<std::shared_ptr<Block>>> cache(std::size_t budget) {
    return BufferCache<std::shared_ptr<Block>>::create(budget, [this](std::size_t bytes) {
      made.push_back(bytes);
      ++*live;
      auto counter = live;
      return std::shared_ptr<Block>(new Block{live, bytes, std::make_unique<char[]>(1)},
                                    [counter](Block* b) {
                                      --*counter;
                                      delete b;
                                    });
    });
  }
};

TEST(BufferCache, AFigureAfterAnotherOfTheSameSizeReusesItsBlock) {
  Blocks blocks;
  auto cache = blocks.cache(2 * 512 * kMiB);
  const Block* first = nullptr;
  {
    auto lease = cache->take(512 * kMiB);
    first = lease.memory().get();
  }
  EXPECT_EQ(cache->kept_bytes(), 512 * kMiB);
  auto again = cache->take(512 * kMiB);
  EXPECT_EQ(again.memory().get(), first);
  EXPECT_EQ(blocks.made.size(), 1u);
  EXPECT_EQ(cache->leased_bytes(), 512 * kMiB);
  EXPECT_EQ(cache->kept_bytes(), 0u);
}

TEST(BufferCache, TwoLeasesAtOnceGetTwoBlocks) {
  Blocks blocks;
  auto cache = blocks.cache(4 * kMiB);
  auto a = cache->take(kMiB);
  auto b = cache->take(kMiB);
  EXPECT_NE(a.memory().get(), b.memory().get());
  EXPECT_EQ(*blocks.live, 2);
}

TEST(BufferCache, TheSmallestKeptBlockThatFitsServesASmallerRequest) {
  Blocks blocks;
  auto cache = blocks.cache(64 * kMiB);
  {
    auto big = cache->take(16 * kMiB);
    auto mid = cache->take(4 * kMiB);
  }
  auto small = cache->take(kMiB);
  EXPECT_EQ(small.bytes(), 4 * kMiB);  // the 4 MiB block, not the 16 MiB one
  auto larger = cache->take(8 * kMiB);
  EXPECT_EQ(larger.bytes(), 16 * kMiB);
  EXPECT_EQ(blocks.made.size(), 2u);
}

TEST(BufferCache, MakingABlockBeyondTheBudgetFreesKeptOnesOldestFirst) {
  Blocks blocks;
  auto cache = blocks.cache(3 * kMiB);
  { auto a = cache->take(kMiB); }      // kept first
  { auto b = cache->take(2 * kMiB); }  // the kept 1 MiB is too small: made, kept second
  EXPECT_EQ(cache->kept_bytes(), 3 * kMiB);
  EXPECT_EQ(*blocks.live, 2);
  auto c = cache->take(3 * kMiB);  // needs the whole budget: both kept blocks go
  EXPECT_EQ(*blocks.live, 1);
  EXPECT_EQ(cache->kept_bytes(), 0u);
  EXPECT_EQ(cache->leased_bytes(), 3 * kMiB);
}

TEST(BufferCache, OnlyAsMuchAsNeededIsFreed) {
  Blocks blocks;
  auto cache = blocks.cache(4 * kMiB);
  {
    auto a = cache->take(kMiB);
    auto b = cache->take(kMiB);
    auto c = cache->take(kMiB);
  }  // given back in reverse order: c first, so c is the oldest kept
  EXPECT_EQ(cache->kept_bytes(), 3 * kMiB);
  auto d = cache->take(2 * kMiB);  // 3 kept + 2 > 4: c alone is freed, a and b stay
  EXPECT_EQ(cache->kept_bytes(), 2 * kMiB);
  EXPECT_EQ(*blocks.live, 3);
}

TEST(BufferCache, ALeaseLargerThanTheBudgetIsMadeAndFreedWhenGivenBack) {
  Blocks blocks;
  auto cache = blocks.cache(kMiB);
  {
    auto huge = cache->take(8 * kMiB);
    EXPECT_EQ(*blocks.live, 1);
  }
  EXPECT_EQ(*blocks.live, 0);
  EXPECT_EQ(cache->kept_bytes(), 0u);
}

TEST(BufferCache, ClearFreesWhatIsKeptAndLeasesStayValid) {
  Blocks blocks;
  auto cache = blocks.cache(8 * kMiB);
  auto held = cache->take(kMiB);
  { auto given = cache->take(2 * kMiB); }
  EXPECT_EQ(*blocks.live, 2);
  cache->clear();
  EXPECT_EQ(*blocks.live, 1);
  EXPECT_EQ(held.memory()->bytes, kMiB);
}

TEST(BufferCache, ALeaseOutlivingItsCacheHandleStillReturnsSafely) {
  Blocks blocks;
  BufferCache<std::shared_ptr<Block>>::Lease lease;
  {
    auto cache = blocks.cache(8 * kMiB);
    lease = cache->take(kMiB);
  }  // the lease keeps the cache alive
  lease = {};
  EXPECT_EQ(*blocks.live, 0);  // the cache went with its last lease, and its kept block with it
}

TEST(BufferCache, AMovedLeaseGivesItsBlockBackOnce) {
  Blocks blocks;
  auto cache = blocks.cache(8 * kMiB);
  auto a = cache->take(kMiB);
  auto b = std::move(a);
  EXPECT_EQ(cache->leased_bytes(), kMiB);
  b = cache->take(2 * kMiB);  // the 1 MiB block comes back first
  EXPECT_EQ(cache->kept_bytes(), kMiB);
  EXPECT_EQ(cache->leased_bytes(), 2 * kMiB);
}

}  // namespace
}  // namespace p2p::bench
