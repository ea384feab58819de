#pragma once
// The list rule of Sec. 5.3, and its greedy variant for a plan of predicted durations (see policies.hpp).
#include <vector>

#include "cosched/sim/engine.hpp"

namespace cosched::sim::policies {

// Tasks in list order; the tasks behind one that cannot start wait too. `waits_for_planned_start` (the list rule):
// a task starts once its planned start has come; without it (greedy) as soon as every resource it needs is free —
// for plans whose durations are predictions, where a planned start a faster task made too late only idles a core.
class ListPolicy final : public Policy {
 public:
  explicit ListPolicy(const LaunchPlan& plan, bool waits_for_planned_start = true);
  [[nodiscard]] std::string_view name() const override { return waits_for_planned_start_ ? "list" : "greedy"; }
  [[nodiscard]] std::vector<StartChoice> select(const EngineView& view) override;
  [[nodiscard]] std::optional<double> next_wakeup(const EngineView& view) const override;

 private:
  std::vector<std::size_t> order_;  // task indices in list order
  bool waits_for_planned_start_;
};

}  // namespace cosched::sim::policies
