// The fast/slow split arithmetic every backend shares: f * bytes rounded down to whole pages, the whole array at f = 1.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(TierSplit, RoundsDownToWholePages) {
  const std::size_t per_page = doubles_per_page();
  const std::size_t count = per_page * 100;
  EXPECT_EQ(fast_element_count(count, 0.5), per_page * 50);  // exactly on a page boundary: no rounding
  // One byte over a page boundary does not buy a page; one byte short of the next loses it.
  const double just_over = (static_cast<double>(page_bytes() * 10) + 1.0) / static_cast<double>(count * 8);
  EXPECT_EQ(fast_element_count(count, just_over), per_page * 10);
  const double just_under = (static_cast<double>(page_bytes() * 11) - 1.0) / static_cast<double>(count * 8);
  EXPECT_EQ(fast_element_count(count, just_under), per_page * 10);
  // Less than a page is nothing fast.
  EXPECT_EQ(fast_element_count(count, std::numeric_limits<double>::min()), 0U);
}

TEST(TierSplit, WholeArrayOnlyWhenTheFractionCoversIt) {
  const std::size_t per_page = doubles_per_page();
  const std::size_t count = per_page * 10 + 7;  // last page is partial
  EXPECT_EQ(fast_element_count(count, 1.0), count);
  EXPECT_EQ(fast_element_count(count, 0.999), per_page * 10);  // the partial last page stays slow
  EXPECT_EQ(fast_element_count(count, 0.5), per_page * 5);     // floor(0.5 * 10.x pages) = 5 pages
}

TEST(TierSplit, BoundaryAlwaysOnAPageUnlessAtTheEndAndNeverAboveTheFraction) {
  const std::size_t count = doubles_per_page() * 37 + 123;
  for (int percent = 0; percent <= 100; ++percent) {
    const double f = percent / 100.0;
    const std::size_t fast = fast_element_count(count, f);
    EXPECT_LE(fast, count);
    EXPECT_TRUE(fast == count || (fast * sizeof(double)) % page_bytes() == 0) << percent << "%";
    EXPECT_LE(static_cast<double>(fast) * 8.0, f * static_cast<double>(count) * 8.0 + 1e-6) << percent << "%";
    EXPECT_GT(static_cast<double>(fast) * 8.0 + static_cast<double>(page_bytes()),
              f * static_cast<double>(count) * 8.0) << percent << "% loses a page or more";
  }
}

// Issue #27: a task granted the whole tier (chunks = all) splits each of its three arrays by the same fraction;
// rounded up, the three shares asked for more than the tier ("requested 10 MiB, 10 MiB free"). Rounded down,
// their sum never exceeds the grant, whatever the sizes.
TEST(TierSplit, TheSharesOfATasksArraysNeverAddUpToMoreThanItsGrant) {
  const std::size_t page = page_bytes();
  for (const std::size_t grant : {10 * (std::size_t{1} << 20), 3 * page + 8, 7 * page}) {
    for (const std::size_t footprint : {16 * (std::size_t{1} << 20) + 24, grant + 8, 5 * grant + 16}) {
      const std::size_t words = footprint / 3 / sizeof(double);  // three arrays (triad)
      const double f = std::min(1.0, static_cast<double>(grant) / static_cast<double>(footprint));
      EXPECT_LE(3 * fast_element_count(words, f) * sizeof(double), grant)
          << "grant " << grant << ", footprint " << footprint;
    }
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
