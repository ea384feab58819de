#pragma once
// Small helpers shared by the policies.
#include <cmath>
#include <cstddef>
#include <vector>

namespace cosched::sim::policies {

// Whether `demand` fits in `free`, every resource type at once.
[[nodiscard]] inline bool fits(const std::vector<int>& demand, const std::vector<int>& free) {
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (demand[i] > free[i]) return false;
  }
  return true;
}

inline void take(const std::vector<int>& demand, std::vector<int>& free) {
  for (std::size_t i = 0; i < demand.size(); ++i) free[i] -= demand[i];
}

// A planned start has "come" at `now` up to rounding: planned starts are sums of durations computed by the
// scheduler, and the simulated clock reaches them by the same sums, but not always in the same order.
[[nodiscard]] inline bool has_come(double planned_start, double now) {
  return planned_start <= now + 1e-9 * std::fmax(1.0, std::fabs(planned_start));
}

}  // namespace cosched::sim::policies
