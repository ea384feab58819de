// FastTierBudget: chunk arithmetic, over-commit refusal, byte reservations, and thread safety.
#include "cosched/platform/fast_tier_budget.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched::platform {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(FastTierBudget, DefaultsToTwentyChunksLikeThePaper) {
  const FastTierBudget budget(16 * 1024 * mib);
  EXPECT_EQ(budget.chunk_count(), 20U);
  EXPECT_EQ(budget.chunk_bytes(), 16 * 1024 * mib / 20);
  EXPECT_EQ(budget.free_chunks(), 20U);
  EXPECT_EQ(budget.used_bytes(), 0U);
}

TEST(FastTierBudget, RejectsZeroChunksAndCapacitiesTooSmallToSplit) {
  EXPECT_THROW(FastTierBudget(1000, 0), UsageError);
  EXPECT_THROW(FastTierBudget(19, 20), UsageError);
  EXPECT_NO_THROW(FastTierBudget(20, 20));
}

TEST(FastTierBudget, ChunkBytesRoundDownSoAllChunksFitTheCapacity) {
  const FastTierBudget budget(1003, 10);
  EXPECT_EQ(budget.chunk_bytes(), 100U);
  EXPECT_EQ(budget.bytes_for(10), 1000U);
  EXPECT_EQ(budget.free_bytes(), 1000U);  // the 3-byte remainder is never handed out
  EXPECT_THROW((void)budget.bytes_for(11), ResourceError);
}

TEST(FastTierBudget, ChunksForRoundsUp) {
  const FastTierBudget budget(2000, 20);  // 100-byte chunks
  EXPECT_EQ(budget.chunks_for(0), 0U);
  EXPECT_EQ(budget.chunks_for(1), 1U);
  EXPECT_EQ(budget.chunks_for(100), 1U);
  EXPECT_EQ(budget.chunks_for(101), 2U);
  EXPECT_EQ(budget.chunks_for(2000), 20U);
  EXPECT_EQ(budget.chunks_for(2001), 21U);  // more than the tier: acquire will refuse it
  EXPECT_EQ(budget.bytes_for(budget.chunks_for(250)), 300U);
}

TEST(FastTierBudget, AcquireAndReleaseAccountChunks) {
  FastTierBudget budget(2000, 20);
  budget.acquire(5);
  budget.acquire(7);
  EXPECT_EQ(budget.free_chunks(), 8U);
  EXPECT_EQ(budget.used_bytes(), 1200U);
  budget.release(5);
  EXPECT_EQ(budget.free_chunks(), 13U);
  budget.release(7);
  EXPECT_EQ(budget.free_chunks(), 20U);
}

TEST(FastTierBudget, RefusesToOverCommitAndSaysRequestedVersusFree) {
  FastTierBudget budget(2000, 20);
  budget.acquire(18);
  try {
    budget.acquire(3);
    FAIL() << "over-commit accepted";
  } catch (const ResourceError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("requested 3 chunks"), std::string::npos) << message;
    EXPECT_NE(message.find("2 of 20 free"), std::string::npos) << message;
  }
  EXPECT_EQ(budget.free_chunks(), 2U);  // the refused request took nothing
  EXPECT_FALSE(budget.try_acquire(3));
  EXPECT_TRUE(budget.try_acquire(2));
  EXPECT_FALSE(budget.try_acquire(1));
  EXPECT_THROW(budget.acquire(21), ResourceError);
}

TEST(FastTierBudget, ReleasingMoreThanAcquiredIsACallerBug) {
  FastTierBudget budget(2000, 20);
  budget.acquire(1);
  EXPECT_THROW(budget.release(2), UsageError);
  EXPECT_EQ(budget.free_chunks(), 19U);
  EXPECT_THROW(budget.release_bytes(101), UsageError);
}

TEST(FastTierBudget, ByteReservationsShareTheCounterWithChunks) {
  FastTierBudget budget(2000, 20);
  budget.acquire_bytes(150);  // a backend's exact fast bytes, not rounded to a chunk
  EXPECT_EQ(budget.used_bytes(), 150U);
  EXPECT_EQ(budget.free_chunks(), 18U);  // 1850 free bytes hold 18 whole chunks
  EXPECT_THROW(budget.acquire(19), ResourceError);
  budget.acquire(18);
  EXPECT_THROW(budget.acquire_bytes(51), ResourceError);
  budget.acquire_bytes(50);
  EXPECT_EQ(budget.free_bytes(), 0U);
}

TEST(FastTierReservation, ReturnsItsBytesWhenDestroyedAndMovesOwnership) {
  auto budget = std::make_shared<FastTierBudget>(2000, 20);
  {
    FastTierReservation outer;
    {
      FastTierReservation inner(budget, 700);
      EXPECT_EQ(budget->used_bytes(), 700U);
      outer = std::move(inner);
    }
    EXPECT_EQ(budget->used_bytes(), 700U);  // moved, not released
    EXPECT_EQ(outer.bytes(), 700U);
  }
  EXPECT_EQ(budget->used_bytes(), 0U);
  EXPECT_THROW(FastTierReservation(budget, 2001), ResourceError);
  EXPECT_EQ(budget->used_bytes(), 0U);
  const FastTierReservation nothing(nullptr, 0);  // an all-slow array holds no reservation
  EXPECT_EQ(nothing.bytes(), 0U);
}

TEST(FastTierBudget, ConcurrentAcquiresNeverExceedTheChunks) {
  FastTierBudget budget(20 * mib, 20);
  std::atomic<std::size_t> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        if (budget.try_acquire(1)) granted.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(granted.load(), 20U);  // 80 attempts, exactly 20 chunks exist
  EXPECT_EQ(budget.free_chunks(), 0U);
}

TEST(FastTierBudget, ConcurrentAcquireReleaseBalancesAndNeverOverCommits) {
  FastTierBudget budget(20 * mib, 20);
  std::atomic<bool> over_committed{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      const std::size_t chunks = 1 + static_cast<std::size_t>(t % 4);
      for (int i = 0; i < 2000; ++i) {
        if (!budget.try_acquire(chunks)) continue;
        if (budget.used_bytes() > budget.bytes_for(budget.chunk_count())) over_committed = true;
        budget.release(chunks);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_FALSE(over_committed.load());
  EXPECT_EQ(budget.used_bytes(), 0U);
}

}  // namespace
}  // namespace cosched::platform
