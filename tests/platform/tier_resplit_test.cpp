// TierBackend::resplit: the emulated backend moves the split of its own arrays in place and keeps the fast-tier
// budget exact; backends that cannot say so; FastTierReservation::resize takes or returns only the difference.
#include <gtest/gtest.h>

#include <memory>

#include "cosched/common/error.hpp"
#include "cosched/platform/fast_tier_budget.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform {
namespace {

constexpr std::size_t page_doubles = 512;  // 4 KiB pages; the counts below are whole pages either way

struct Emulated {
  TierOptions options;
  std::unique_ptr<TierBackend> backend;
  explicit Emulated(std::size_t fast_bytes) {
    options.backend = "emulated";
    options.emulated_fast_bytes = fast_bytes;
    options.budget = std::make_shared<FastTierBudget>(fast_bytes, 4);
    backend = make_tier_backend(options);
  }
};

TEST(EmulatedResplit, MovesTheSplitKeepsTheValuesAndAccountsTheBudget) {
  const std::size_t count = 8 * page_doubles;
  Emulated tier(count * sizeof(double));
  TieredArray array = tier.backend->allocate(count, 2 * page_doubles);
  for (std::size_t i = 0; i < count; ++i) array.span()[i] = static_cast<double>(i);
  EXPECT_EQ(tier.options.budget->used_bytes(), 2 * page_doubles * sizeof(double));

  ASSERT_TRUE(tier.backend->resplit(array, 6 * page_doubles));
  EXPECT_EQ(array.span().fast_count, 6 * page_doubles);
  EXPECT_EQ(array.span().slow_count, 2 * page_doubles);
  EXPECT_EQ(array.fast_bytes(), 6 * page_doubles * sizeof(double));
  EXPECT_EQ(tier.options.budget->used_bytes(), 6 * page_doubles * sizeof(double));
  for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(array.span()[i], static_cast<double>(i)) << i;

  ASSERT_TRUE(tier.backend->resplit(array, 0));
  EXPECT_EQ(array.span().fast, nullptr);
  EXPECT_EQ(array.span().slow_count, count);
  EXPECT_EQ(tier.options.budget->used_bytes(), 0U);
  ASSERT_TRUE(tier.backend->resplit(array, count));
  EXPECT_EQ(array.span().slow, nullptr);
  EXPECT_EQ(array.span()[count - 1], static_cast<double>(count - 1));
  array = {};
  EXPECT_EQ(tier.options.budget->used_bytes(), 0U);  // released with the array, at its last split
}

TEST(EmulatedResplit, OverCommitIsRefusedAndLeavesTheArrayAsItWas) {
  const std::size_t count = 8 * page_doubles;
  Emulated tier(count * sizeof(double));  // exactly one array's worth
  TieredArray first = tier.backend->allocate(count, 4 * page_doubles);
  TieredArray second = tier.backend->allocate(count, 2 * page_doubles);
  EXPECT_THROW((void)tier.backend->resplit(second, 5 * page_doubles), ResourceError);
  EXPECT_EQ(second.span().fast_count, 2 * page_doubles);
  EXPECT_EQ(tier.options.budget->used_bytes(), 6 * page_doubles * sizeof(double));
  EXPECT_TRUE(tier.backend->resplit(second, 4 * page_doubles));  // exactly what is left
  EXPECT_THROW((void)tier.backend->resplit(second, count + 1), UsageError);
}

TEST(EmulatedResplit, RefusesArraysItDidNotAllocate) {
  const std::size_t count = 2 * page_doubles;
  Emulated one(count * sizeof(double));
  Emulated other(count * sizeof(double));
  TieredArray array = one.backend->allocate(count, 0);
  EXPECT_FALSE(other.backend->resplit(array, page_doubles));
  EXPECT_EQ(array.span().fast_count, 0U);
  EXPECT_EQ(other.options.budget->used_bytes(), 0U);
}

TEST(TierResplit, BackendsWithoutInPlaceResplitSaySo) {
  TierOptions options;
  options.backend = "none";
  const auto backend = make_tier_backend(options);
  TieredArray array = backend->allocate(page_doubles, 0);
  EXPECT_FALSE(backend->resplit(array, 0));
}

TEST(FastTierReservation, ResizeTakesOrReturnsOnlyTheDifference) {
  const auto budget = std::make_shared<FastTierBudget>(1000, 10);
  FastTierReservation reservation(budget, 600);
  reservation.resize(900);  // needs 300 free, not 900
  EXPECT_EQ(budget->used_bytes(), 900U);
  EXPECT_THROW(reservation.resize(1001), ResourceError);
  EXPECT_EQ(reservation.bytes(), 900U);
  reservation.resize(100);
  EXPECT_EQ(budget->used_bytes(), 100U);
  reservation.resize(0);
  reservation.resize(50);  // a reservation that reached 0 still knows its budget
  EXPECT_EQ(budget->used_bytes(), 50U);
  FastTierReservation none;
  EXPECT_THROW(none.resize(1), UsageError);
  none.resize(0);
}

}  // namespace
}  // namespace cosched::platform
