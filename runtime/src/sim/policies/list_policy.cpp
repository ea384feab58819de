#include "sim/policies/list_policy.hpp"

#include <algorithm>
#include <numeric>

#include "cosched/common/invariant.hpp"
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

std::vector<std::vector<int>> plan_demands(const LaunchPlan& plan) {
  std::vector<std::vector<int>> demands;
  demands.reserve(plan.tasks.size());
  for (const PlannedTask& task : plan.tasks) demands.push_back(task.demand);
  return demands;
}

}  // namespace

ListPolicy::ListPolicy(const LaunchPlan& plan, bool waits_for_planned_start, Replanner* replanner)
    : order_(list_order(plan)),
      waits_for_planned_start_(waits_for_planned_start),
      // The list rule waits for planned starts a re-plan would leave behind: only the greedy rule re-plans.
      replanner_(waits_for_planned_start ? nullptr : replanner) {
  // A copy only where a re-plan may change them: a replayed trace's plan of many tasks is not held twice.
  if (replanner_ != nullptr) demands_ = plan_demands(plan);
}

void ListPolicy::ended(std::size_t task, const TaskRun& /*run*/) {
  if (replanner_ != nullptr) ended_.push_back(task);
}

void ListPolicy::take_replan(const Replan& replan, const EngineView& view) {
  std::vector<std::size_t> order;
  std::vector<bool> placed(demands_.size(), false);
  for (const ReplannedTask& moved : replan.tasks) {
    check_invariant(moved.task < demands_.size() && view.runs[moved.task].state == TaskState::pending &&
                        !placed[moved.task],
                    "a re-plan names a task that is not pending, or one task twice");
    check_invariant(moved.demand.size() == view.plan.dimensions() && !moved.demand.empty() && moved.demand[0] >= 1,
                    "a re-plan gives a task an allocation of another shape, or no core");
    for (std::size_t i = 0; i < moved.demand.size(); ++i) {
      check_invariant(moved.demand[i] >= 0 && moved.demand[i] <= view.plan.capacities[i],
                      "a re-plan gives a task more than the node has");
    }
    demands_[moved.task] = moved.demand;
    placed[moved.task] = true;
    order.push_back(moved.task);
  }
  for (const std::size_t task : order_) {
    if (!placed[task]) order.push_back(task);
  }
  order_ = std::move(order);
}

std::vector<StartChoice> ListPolicy::select(const EngineView& view) {
  // Every task that ended since the last call, in the order they ended: a later re-plan sees the earlier one's.
  for (const std::size_t task : ended_) {
    if (const std::optional<Replan> replan = replanner_->task_ended(task, view, {order_, demands_})) {
      take_replan(*replan, view);
    }
  }
  ended_.clear();
  std::vector<StartChoice> picks;
  std::vector<int> free = view.available;
  for (std::size_t task : order_) {
    if (view.runs[task].state != TaskState::pending) continue;
    const PlannedTask& planned = view.plan.tasks[task];
    if (waits_for_planned_start_ && !has_come(planned.planned_start, view.now)) break;
    // Resources still busy (an earlier task ran late): this task waits, and the list behind it too.
    const std::vector<int>& demand = replanner_ != nullptr ? demands_[task] : planned.demand;
    if (!fits(demand, free)) break;
    take(demand, free);
    picks.push_back({task, demand});
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
