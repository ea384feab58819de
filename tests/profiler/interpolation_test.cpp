#include "cosched/profiler/interpolation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace cosched::profiler {
namespace {

std::vector<double> axis(unsigned chunks, double chunk_bytes) {
  std::vector<double> x;
  for (unsigned k = 0; k <= chunks; ++k) x.push_back(k * chunk_bytes);
  return x;
}

void expect_monotone_and_positive(const std::vector<std::vector<double>>& grid) {
  for (std::size_t c = 0; c < grid.size(); ++c) {
    for (std::size_t k = 0; k < grid[c].size(); ++k) {
      ASSERT_TRUE(std::isfinite(grid[c][k]) && grid[c][k] > 0.0) << c << "," << k;
      if (c > 0) {
        ASSERT_LE(grid[c][k], grid[c - 1][k]) << "more cores slower at " << c << "," << k;
      }
      if (k > 0) {
        ASSERT_LE(grid[c][k], grid[c][k - 1]) << "more chunks slower at " << c << "," << k;
      }
    }
  }
}

// Random sparse grids, noisy times (not monotone themselves): the filled grid is monotone, finite and positive
// everywhere, and never leaves the range of the measured times scaled by the core extrapolation.
TEST(Interpolation, RandomSparseGridsComeOutMonotone) {
  std::mt19937_64 rng(20261122);
  for (int trial = 0; trial < 500; ++trial) {
    const unsigned max_cores = 1 + static_cast<unsigned>(rng() % 16);
    const unsigned chunks = static_cast<unsigned>(rng() % 21);
    const double chunk_bytes = 1.0 + static_cast<double>(rng() % 1000);
    const auto x = axis(chunks, chunk_bytes);
    std::uniform_real_distribution<double> time(0.01, 10.0);
    std::vector<TimeSample> samples;
    const std::size_t count = 1 + rng() % (max_cores * (chunks + 1));
    for (std::size_t i = 0; i < count; ++i) {
      samples.push_back({1 + static_cast<unsigned>(rng() % max_cores), x[rng() % x.size()], time(rng)});
    }
    const auto grid = fill_monotone_grid(samples, max_cores, x);
    ASSERT_EQ(grid.size(), max_cores);
    ASSERT_EQ(grid[0].size(), chunks + 1U);
    expect_monotone_and_positive(grid);
  }
}

// Measurements from a monotone law come back exactly where measured, and in between lie between neighbours.
TEST(Interpolation, MonotoneMeasurementsAreKeptAndBracketed) {
  const auto x = axis(10, 1.0);
  const auto law = [](unsigned c, double fast) { return (20.0 - fast) / c; };
  std::vector<TimeSample> samples;
  for (unsigned c : {1U, 4U}) {
    for (double fast : {0.0, 5.0, 10.0}) samples.push_back({c, fast, law(c, fast)});
  }
  const auto grid = fill_monotone_grid(samples, 6, x);
  expect_monotone_and_positive(grid);
  for (unsigned c : {1U, 4U}) {
    for (double fast : {0.0, 5.0, 10.0}) EXPECT_DOUBLE_EQ(grid[c - 1][static_cast<std::size_t>(fast)], law(c, fast));
  }
  // Linear along fast memory between measured amounts.
  EXPECT_DOUBLE_EQ(grid[0][2], law(1, 2.0));
  // Linear in 1/cores between measured core counts: exact for t ~ 1/c.
  EXPECT_NEAR(grid[1][0], law(2, 0.0), 1e-12);
  EXPECT_NEAR(grid[2][7], law(3, 7.0), 1e-12);
  // Beyond the largest measured core count: no speedup assumed.
  EXPECT_DOUBLE_EQ(grid[5][10], law(4, 10.0));
}

TEST(Interpolation, BelowSmallestMeasuredCoresScalesAsPerfectSpeedup) {
  const auto x = axis(2, 1.0);
  const std::vector<TimeSample> samples = {{2, 0.0, 4.0}, {2, 2.0, 2.0}};
  const auto grid = fill_monotone_grid(samples, 2, x);
  EXPECT_DOUBLE_EQ(grid[0][0], 8.0);
  EXPECT_DOUBLE_EQ(grid[0][1], 6.0);
  EXPECT_DOUBLE_EQ(grid[1][1], 3.0);
}

TEST(Interpolation, BelowSmallestMeasuredFastBytesContinuesTheBenefit) {
  const auto x = axis(4, 1.0);
  const std::vector<TimeSample> samples = {{1, 2.0, 6.0}, {1, 4.0, 4.0}};
  const auto grid = fill_monotone_grid(samples, 1, x);
  EXPECT_DOUBLE_EQ(grid[0][0], 8.0);
  EXPECT_DOUBLE_EQ(grid[0][1], 7.0);
}

TEST(Interpolation, DuplicateFastBytesAreAveraged) {
  const auto x = axis(1, 1.0);
  const std::vector<TimeSample> samples = {{1, 1.0, 2.0}, {1, 1.0, 4.0}, {1, 0.0, 5.0}};
  const auto grid = fill_monotone_grid(samples, 1, x);
  EXPECT_DOUBLE_EQ(grid[0][1], 3.0);
}

TEST(Interpolation, NoisyRiseIsClosedToTheBestSmallerAllocation) {
  const auto x = axis(2, 1.0);
  const std::vector<TimeSample> samples = {{1, 0.0, 5.0}, {1, 1.0, 3.0}, {1, 2.0, 3.5}, {2, 0.0, 6.0}};
  const auto grid = fill_monotone_grid(samples, 2, x);
  EXPECT_DOUBLE_EQ(grid[0][2], 3.0);  // min over fewer chunks
  EXPECT_DOUBLE_EQ(grid[1][0], 5.0);  // min over fewer cores
}

}  // namespace
}  // namespace cosched::profiler
