// The interval-indexed LP lower bound on sum_j w_j C_j of seed 001, Sec. 3.3. The paper's formulation is missing
// from the text; this is the digest's reconstruction with its two validity fixes, on d resources:
//   minimise   sum_i w_i sum_j c_ij x_ij,   c_ij = max(lower end of interval j, fastest time of i) by default,
//                                           the lower end alone (the paper's reading) with interval_start
//   subject to sum_j x_ij = 1                                              for every task i
//              sum_i sum_{l <= j} S^r_il x_il <= P(r) T_j                   for every finite interval j, resource r
//              0 <= x_ij <= 1, x_ij only where task i can end by T_j
// Intervals: [0, T_0] (a task can end before the first batch: the first fix), (T_{j-1}, T_j] doubling until
// T >= max(2 C*max, sum_i fastest_i) (the second fix: minsum-optimal schedules can end past 2 C*max), and a last
// interval (T_last, inf) without surface constraint, so that every completion time of every schedule is covered.
// S^r_il = min p_r t(p) over the allocations with t(p) <= T_l: a task ending in interval l ran with one of them.
// Any schedule gives a feasible 0/1 point whose objective is <= its sum w_j C_j, so the LP optimum is a bound.
// LpIntervals::paper_printed keeps only the paper's printed intervals (T_0, T_1], ..., (C*max, 2 C*max] of the same
// grid: the same rows and columns minus [0, T_0], those past 2 C*max and (T_last, inf) — a diagnostic, not a bound.
#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/common/constants.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "sched/bicriteria/lp_solver.hpp"

namespace cosched::sched {

namespace {

// The upper ends T_0 < T_1 < ... of the finite intervals.
std::vector<double> interval_ends(double first, double horizon) {
  std::vector<double> ends{first};
  while (ends.back() < horizon) ends.push_back(ends.back() * 2);
  return ends;
}

// minimum_area[j * d + r] = S^r_ij for one task: min p_r t(p) over the allocations with t(p) <= ends[j].
void minimum_areas(const AllocationSpace& space, const std::vector<int>& coordinates, const std::vector<double>& times,
                   const std::vector<double>& ends, std::vector<double>& minimum_area) {
  const std::size_t d = space.dimensions();
  minimum_area.assign(ends.size() * d, kInfinity);
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double t = times[k];
    const auto first = std::lower_bound(ends.begin(), ends.end(), t);
    if (first == ends.end()) continue;  // infinite, or ends only in the last interval
    const std::size_t j = static_cast<std::size_t>(first - ends.begin());
    for (std::size_t r = 0; r < d; ++r) {
      minimum_area[j * d + r] = std::min(minimum_area[j * d + r], static_cast<double>(coordinates[k * d + r]) * t);
    }
  }
  for (std::size_t j = 1; j < ends.size(); ++j) {
    for (std::size_t r = 0; r < d; ++r) {
      minimum_area[j * d + r] = std::min(minimum_area[j * d + r], minimum_area[(j - 1) * d + r]);
    }
  }
}

}  // namespace

std::optional<double> weighted_completion_lower_bound(const Instance& instance, LpCompletionCost cost,
                                                     LpIntervals intervals) {
  const std::size_t n = instance.task_count();
  if (n == 0) return 0.0;
  const AllocationSpace& space = instance.space();
  const std::size_t d = space.dimensions();
  const CanonicalAllotments allotments(instance);
  const double estimate = batch_grid_estimate(instance);
  double serial = 0.0;
  for (std::size_t i = 0; i < n; ++i) serial += allotments.fastest(i).time;
  const bool printed = intervals == LpIntervals::paper_printed;
  // T_0 = t_0 = C*max / 2^K exactly (a power of two), so the doubling hits 2 C*max exactly.
  const std::vector<double> ends = interval_ends(first_batch_length(instance, allotments, estimate),
                                                 printed ? 2 * estimate : std::max(2 * estimate, serial));
  const std::size_t finite = ends.size();

  std::vector<int> coordinates(space.size() * d);
  for (std::size_t k = 0; k < space.size(); ++k) space.decode(k, std::span<int>(coordinates.data() + k * d, d));
  detail::LinearProgram program;
  for (std::size_t i = 0; i < n; ++i) {  // rows 0..n-1: every task ends once
    program.row_lower.push_back(1.0);
    program.row_upper.push_back(1.0);
  }
  for (std::size_t j = 0; j < finite; ++j) {  // rows n + j*d + r: the surface of resource r up to T_j
    for (std::size_t r = 0; r < d; ++r) {
      program.row_lower.push_back(-kInfinity);
      program.row_upper.push_back(static_cast<double>(space.capacity(r)) * ends[j]);
    }
  }
  std::vector<double> times(space.size());
  std::vector<double> minimum_area;
  for (std::size_t i = 0; i < n; ++i) {
    const Task& task = instance.tasks()[i];
    task.profile->fill_times(space, times);
    minimum_areas(space, coordinates, times, ends, minimum_area);
    const double fastest = allotments.fastest(i).time;
    for (std::size_t l = 0; l <= finite; ++l) {  // l == finite: the last interval (T_last, inf)
      if (l < finite && fastest > ends[l]) continue;  // cannot end that early
      if (printed && (l == 0 || l == finite)) continue;  // [0, T_0] and (T_last, inf) are not printed
      // Interval 0 is [0, T_0]: its lower end says nothing, so the fastest time in both readings.
      const double lower_end = l == 0 ? fastest : ends[l - 1];
      const bool floored = cost == LpCompletionCost::fastest_time_floor;
      program.objective.push_back(task.weight * (floored ? std::max(lower_end, fastest) : lower_end));
      program.column_lower.push_back(0.0);
      program.column_upper.push_back(1.0);
      program.row_index.push_back(static_cast<int>(i));
      program.value.push_back(1.0);
      for (std::size_t j = l; j < finite; ++j) {
        for (std::size_t r = 0; r < d; ++r) {
          const double surface = minimum_area[l * d + r];
          if (surface <= 0) continue;
          program.row_index.push_back(static_cast<int>(n + j * d + r));
          program.value.push_back(surface);
        }
      }
      program.column_start.push_back(static_cast<int>(program.row_index.size()));
    }
  }
  return detail::minimise(program);
}

}  // namespace cosched::sched
