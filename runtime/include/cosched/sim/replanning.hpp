#pragma once
// Re-planning as results arrive (issue 39): a launch whose durations are predictions, some of them guesses, shows
// each task that ends to a Replanner. When what it learnt changes the plan, the replanner gives the pending tasks a
// new launch order and allocations, and the launch goes on with them. Only the greedy launch
// rule re-plans (policies.hpp: each task in list order as soon as what it needs is free): the list rule keeps planned
// starts a re-plan would move, and a pack plan keeps its packs.
//
// The engine stays the one executor: the re-plan is an input of its policy (make_policy), so a simulated clock with
// ground-truth durations (SimulatedClock's per-grant outcome) runs the same re-planning launch as the wall clock.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cosched/sim/engine.hpp"

namespace cosched::sim {

struct ReplannedTask {
  std::size_t task = 0;       // index into LaunchPlan::tasks; must be pending
  std::vector<int> demand;    // its new allocation (within the plan's capacities, at least one core)
  // What the replanner now predicts it takes at `demand` (nullopt: it does not say). The plan's time table is not
  // changed by a re-plan: this is what a journal records against what the task then takes.
  std::optional<double> predicted_seconds = std::nullopt;
  bool guessed = false;  // that prediction is a guess: nothing was known of the task's kind yet
};

// The pending tasks in their new launch order. Pending tasks it leaves out keep their allocations and go after it,
// in their old order.
struct Replan {
  std::vector<ReplannedTask> tasks;
  std::string reason = {};  // what was learnt and what the re-plan expects, in words (for the journal)
  // What the replanner predicts the rest of the launch takes from now, the tasks still running included (nullopt:
  // it does not say): a launch's progress tells its end from it.
  std::optional<double> rest_s = std::nullopt;
};

// The launch's list as it stands when a task ends: the tasks in the order the rule starts them, and each task's
// allocation (the plan's, or an earlier re-plan's).
struct StandingList {
  const std::vector<std::size_t>& order;
  const std::vector<std::vector<int>>& demands;
};

class Replanner {
 public:
  virtual ~Replanner() = default;
  // `task` ended and the batch goes on (view.runs[task] says how and when; view.now is its end); the tasks that end
  // the batch are not shown, there is nothing left to plan. nullopt: the plan stands.
  [[nodiscard]] virtual std::optional<Replan> task_ended(std::size_t task, const EngineView& view,
                                                        const StandingList& standing) = 0;
};

}  // namespace cosched::sim
