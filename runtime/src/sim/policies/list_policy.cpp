#include "sim/policies/list_policy.hpp"

#include <algorithm>
#include <numeric>

#include "sim/policies/fits.hpp"

namespace cosched::sim::policies {

ListPolicy::ListPolicy(const LaunchPlan& plan) : order_(plan.tasks.size()) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  // The list: planned start order, ties in schedule order (what LS_d's scan produced).
  std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
    return plan.tasks[a].planned_start < plan.tasks[b].planned_start;
  });
}

std::vector<StartChoice> ListPolicy::select(const EngineView& view) {
  std::vector<StartChoice> picks;
  std::vector<int> free = view.available;
  for (std::size_t task : order_) {
    if (view.runs[task].state != TaskState::pending) continue;
    const PlannedTask& planned = view.plan.tasks[task];
    if (!has_come(planned.planned_start, view.now)) break;
    // Resources still busy (an earlier task ran late): this task waits, and the list behind it too.
    if (!fits(planned.demand, free)) break;
    take(planned.demand, free);
    picks.push_back({task, planned.demand});
  }
  return picks;
}

std::optional<double> ListPolicy::next_wakeup(const EngineView& view) const {
  for (std::size_t task : order_) {
    if (view.runs[task].state != TaskState::pending) continue;
    const double start = view.plan.tasks[task].planned_start;
    if (has_come(start, view.now)) return std::nullopt;  // it waits for resources: a completion wakes it
    return start;
  }
  return std::nullopt;
}

}  // namespace cosched::sim::policies
