#pragma once
// Filling a dense (cores x fast bytes) time grid from sparse measurements, keeping time non-increasing in both
// resources. Method (docs/profiler.md):
//   1. Along fast memory, per measured core count: piecewise-linear in fast bytes between measured points
//      (several measurements at the same fast bytes — chunks beyond the footprint — are averaged); above the
//      largest measured amount the time stays flat; below the smallest it continues the first segment's slope
//      when that slope shows a benefit, else stays flat.
//   2. Along cores: linear in 1/cores between the two nearest measured core counts (exact for perfect speedup,
//      which the paper observes); below the smallest measured count the time scales as c_min / c; above the
//      largest it stays flat (no speedup is assumed that was not measured).
//   3. Monotone closure t(c, k) = min over c' <= c, k' <= k (footnote 1 of the paper), which also removes
//      measurement noise that would make more resources look slower.
#include <vector>

namespace cosched::profiler {

struct TimeSample {
  unsigned cores = 0;       // >= 1
  double fast_bytes = 0.0;  // bytes in the fast tier, already capped at the footprint
  double time_s = 0.0;      // > 0
};

// grid[c - 1][k] for c = 1..max_cores and k indexing `fast_axis` (fast bytes, non-decreasing). `samples` must
// be non-empty. Every entry is finite and positive; rows and columns are non-increasing.
[[nodiscard]] std::vector<std::vector<double>> fill_monotone_grid(const std::vector<TimeSample>& samples,
                                                                  unsigned max_cores,
                                                                  const std::vector<double>& fast_axis);

}  // namespace cosched::profiler
