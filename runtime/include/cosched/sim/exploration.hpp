#pragma once
// Exploring in a plan's slack (issue 39): a kind of task known at some allocations only learns how it does at
// another when one of its tasks is launched there, and that costs the batch nothing when the plan has room for it
// anyway — the tail of a list plan, where a core would idle while the last tasks finish. `cosched run` keeps what
// every launched task took (profiler::learn_from_launch), so the next batch knows the kind at one more allocation
// without a profiling run paid from its budget.
//
// The rule is safe on the cautious side: a task moves to an allocation it was never measured at only when the
// plan's predicted makespan (contention-aware when the plan has a bandwidth model) does not grow even if the task
// takes its cautious time there (its fit one sd up, not its median). Moves already taken keep their cautious times
// while later ones are tried, so all of them together stay within the plan's makespan on those times.
#include <cstddef>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sim {

struct ExplorationChoice {
  std::vector<int> alloc;   // an allocation the task's kind has no run at
  double cautious_s = 0.0;  // its time there on the cautious side (> 0, finite)
};

struct ExplorationOption {
  std::size_t task = 0;   // index into the instance's (and schedule's) tasks
  std::size_t group = 0;  // what it teaches (a kind's cores, or its fast chunks): one option of a group explores
  std::vector<ExplorationChoice> choices;  // most informative first; the first that fits the slack is taken
};

struct ExplorationStep {
  std::size_t task = 0;
  std::vector<int> from;
  std::vector<int> to;
  double cautious_s = 0.0;  // the time it was allowed on the cautious side
};

struct ExplorationResult {
  std::vector<ExplorationStep> steps;  // in the order they were taken
  double makespan_s = 0.0;             // the plan's predicted makespan before (and, on the cautious side, after)
};

// Tries `options` in their order on `schedule`, a list plan of `instance` (a plan with packs is left as it is:
// its packs have no slack this rule can see). Each option's first choice that keeps the predicted makespan is
// taken, unless its group explored already or its task moved already (its choices were made for where it was):
// the task's allocation and duration (the instance's time there, its median) change. When any step was taken,
// every task's start becomes the one the plan's launch rule gives it on the instance's times (a valid schedule,
// in the same list order) and the makespan follows. Throws std::invalid_argument for an option whose task is out
// of range or whose choice does not fit the instance's capacities or has a cautious time not > 0.
[[nodiscard]] ExplorationResult explore_in_slack(const sched::Instance& instance, sched::Schedule& schedule,
                                                 const std::vector<ExplorationOption>& options);

}  // namespace cosched::sim
