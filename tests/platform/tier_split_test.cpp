// The fast/slow split arithmetic every backend shares: ceil(f * bytes), rounded up to pages, capped at the array.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform {
namespace {

std::size_t doubles_per_page() { return page_bytes() / sizeof(double); }

TEST(TierSplit, PageSizeIsAPowerOfTwoHoldingWholeDoubles) {
  const std::size_t page = page_bytes();
  EXPECT_GE(page, 4096U);
  EXPECT_EQ(page & (page - 1), 0U);
  EXPECT_EQ(page % sizeof(double), 0U);
}

TEST(TierSplit, ZeroFractionPlacesNothingFast) {
  EXPECT_EQ(fast_element_count(1'000'000, 0.0), 0U);
  EXPECT_EQ(fast_element_count(0, 0.0), 0U);
}

TEST(TierSplit, FullFractionPlacesEverythingFastEvenForPartialPages) {
  EXPECT_EQ(fast_element_count(1'000'000, 1.0), 1'000'000U);
  EXPECT_EQ(fast_element_count(3, 1.0), 3U);  // smaller than a page: capped at the array, not a page
}

TEST(TierSplit, RoundsUpToWholePages) {
  const std::size_t per_page = doubles_per_page();
  const std::size_t count = per_page * 100;
  EXPECT_EQ(fast_element_count(count, 0.5), per_page * 50);  // exactly on a page boundary: no rounding
  // One byte over a page boundary costs a whole page.
  const double just_over = (static_cast<double>(page_bytes() * 10) + 1.0) / static_cast<double>(count * 8);
  EXPECT_EQ(fast_element_count(count, just_over), per_page * 11);
  // The tiniest positive fraction still takes a page: ceil never rounds a wanted byte away.
  EXPECT_EQ(fast_element_count(count, std::numeric_limits<double>::min()), per_page);
}

TEST(TierSplit, CapsAtTheArrayWhenRoundingOvershoots) {
  const std::size_t per_page = doubles_per_page();
  const std::size_t count = per_page * 10 + 7;  // last page is partial
  EXPECT_EQ(fast_element_count(count, 0.999), count);
  EXPECT_EQ(fast_element_count(count, 0.5), per_page * 6);  // ceil(0.5 * 10.x pages) = 6 pages
}

TEST(TierSplit, BoundaryAlwaysOnAPageUnlessAtTheEnd) {
  const std::size_t count = doubles_per_page() * 37 + 123;
  for (int percent = 0; percent <= 100; ++percent) {
    const std::size_t fast = fast_element_count(count, percent / 100.0);
    EXPECT_LE(fast, count);
    EXPECT_TRUE(fast == count || (fast * sizeof(double)) % page_bytes() == 0) << percent << "%";
    EXPECT_GE(static_cast<double>(fast) * 8.0, percent / 100.0 * static_cast<double>(count) * 8.0 - 1e-6);
  }
}

TEST(TierSplit, RejectsFractionsOutsideTheUnitIntervalAndNaN) {
  EXPECT_THROW((void)fast_element_count(100, -0.01), UsageError);
  EXPECT_THROW((void)fast_element_count(100, 1.0001), UsageError);
  EXPECT_THROW((void)fast_element_count(100, std::nan("")), UsageError);
  EXPECT_THROW((void)fast_element_count(100, std::numeric_limits<double>::infinity()), UsageError);
}

}  // namespace
}  // namespace cosched::platform
