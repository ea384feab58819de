#include "cosched/sched/bicriteria.hpp"

namespace cosched::sched {

ComparisonBounds comparison_bounds(const Instance& instance, double makespan_bound, bool solve_lp) {
  ComparisonBounds bounds;
  bounds.makespan = makespan_bound;
  bounds.two_shelf = two_shelf_lower_bound(instance);
  if (solve_lp) {
    bounds.weighted = weighted_completion_lower_bound(instance);
    bounds.weighted_paper_cost = weighted_completion_lower_bound(instance, LpCompletionCost::interval_start);
    bounds.weighted_printed =
        weighted_completion_lower_bound(instance, LpCompletionCost::interval_start, LpIntervals::paper_printed);
  }
  return bounds;
}

}  // namespace cosched::sched
