#pragma once
// The list rule of Sec. 5.3, and its greedy variant for a plan of predicted durations (see policies.hpp), which may
// re-plan its pending tasks as tasks end (replanning.hpp).
#include <cstddef>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/replanning.hpp"

namespace cosched::sim::policies {

// Tasks in list order; the tasks behind one that cannot start wait too. `waits_for_planned_start` (the list rule):
// a task starts once its planned start has come; without it (greedy) as soon as every resource it needs is free —
// for plans whose durations are predictions, where a planned start a faster task made too late only idles a core.
// A greedy list given a `replanner` shows it every task that ends, before it next selects, and takes the order and
// allocations it gives the pending tasks.
class ListPolicy final : public Policy {
 public:
  explicit ListPolicy(const LaunchPlan& plan, bool waits_for_planned_start = true, Replanner* replanner = nullptr);
  [[nodiscard]] std::string_view name() const override { return waits_for_planned_start_ ? "list" : "greedy"; }
  void ended(std::size_t task, const TaskRun& run) override;
  [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override;
  [[nodiscard]] std::optional<double> next_wakeup(const EngineView& view) const override;

 private:
  void take_replan(const Replan& replan, const EngineView& view);

  std::vector<std::size_t> order_;          // task indices in list order
  std::vector<std::vector<int>> demands_;   // with a replanner, per task: the plan's allocation, or a re-plan's
  bool waits_for_planned_start_;
  Replanner* replanner_;                    // not owned; null: the plan stands
  std::vector<std::size_t> ended_;          // ended since the last select(), for the replanner
};

}  // namespace cosched::sim::policies
