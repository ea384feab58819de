// The one median and the noise floor's spread.
#include <gtest/gtest.h>

#include <stdexcept>

#include "cosched/common/stats.hpp"

namespace cosched {
namespace {

TEST(Median, IsTheMiddleValueOrTheMeanOfTheTwoMiddleOnes) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_THROW((void)median({}), std::invalid_argument);
}

TEST(RelativeHalfRange, IsHalfTheRangeOverTheMedian) {
  EXPECT_DOUBLE_EQ(relative_half_range({9.0, 10.0, 12.0}), 3.0 / 20.0);
  EXPECT_DOUBLE_EQ(relative_half_range({5.0, 5.0}), 0.0);
}

TEST(RelativeHalfRange, IsZeroWithoutTwoValuesOrAPositiveMedian) {
  EXPECT_DOUBLE_EQ(relative_half_range({}), 0.0);
  EXPECT_DOUBLE_EQ(relative_half_range({7.0}), 0.0);
  EXPECT_DOUBLE_EQ(relative_half_range({-1.0, 0.0, 1.0}), 0.0);
}

}  // namespace
}  // namespace cosched
