#include "sim/policies/list_policy.hpp"

#include <algorithm>
#include <numeric>

#include "sim/policies/fits.hpp"

namespace cosched::sim::policies {

namespace {

// The list: planned start order, ties in schedule order (what LS_d's scan produced).
std::vector<std::size_t> list_order(const LaunchPlan& plan) {
  std::vector<std::size_t> order(plan.tasks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return plan.tasks[a].planned_start < plan.tasks[b].planned_start;
  });
  return order;
}

}  // namespace

ListPolicy::ListPolicy(const LaunchPlan& plan, bool waits_for_planned_start)
    : order_(list_order(plan)), waits_for_planned_start_(waits_for_planned_start) {}

std::vector<StartChoice> ListPolicy::select(const EngineView& view) {
  std::vector<StartChoice> picks;
  std::vector<int> free = view.available;
  for (std::size_t task : order_) {
    if (view.runs[task].state != TaskState::pending) continue;
    const PlannedTask& planned = view.plan.tasks[task];
    if (waits_for_planned_start_ && !has_come(planned.planned_start, view.now)) break;
    // Resources still busy (an earlier task ran late): this task waits, and the list behind it too.
    if (!fits(planned.demand, free)) break;
    take(planned.demand, free);
    picks.push_back({task, planned.demand});
  }
  return picks;
}

std::optional<double> ListPolicy::next_wakeup(const EngineView& view) const {
  if (!waits_for_planned_start_) return std::nullopt;  // only completions start tasks
  for (std::size_t task : order_) {
    if (view.runs[task].state != TaskState::pending) continue;
    const double start = view.plan.tasks[task].planned_start;
    if (has_come(start, view.now)) return std::nullopt;  // it waits for resources: a completion wakes it
    return start;
  }
  return std::nullopt;
}

}  // namespace cosched::sim::policies
