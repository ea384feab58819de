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
#include <functional>
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

// A task a plan may move, as what its kind knows sees it (the caller's store of runs and fits: cosched run's, the
// simulated study's).
struct ExplorableTask {
  std::size_t task = 0;       // index into the instance's (and schedule's) tasks
  std::size_t kind = 0;       // tasks of one kind teach the same
  std::vector<std::size_t> resources{0};  // the instance's resources it may move along (0 cores, 1 fast chunks)
  std::function<bool(const std::vector<int>& alloc)> ran_at;       // its kind has a run at this allocation
  std::function<double(const std::vector<int>& alloc)> log_sd_at;  // the predictive sd of ln t of a run there
};

// At most this many tasks of one kind and resource are offered (the latest starting first): one of them explores,
// and each try is a prediction of the whole plan.
inline constexpr std::size_t kExplorationTasksPerKind = 3;

// The options explore_in_slack tries for `tasks` on `schedule` (a plan of `instance`): per task and resource, the
// amounts of that resource its kind has no run at — twice, four times ... the planned amount (from 1 when none is
// planned) and the node's all, the most first (a far point tells a fit more than a near one) — the others as
// planned, each at the instance's time there (its median) times e^(log_sd_at): one predictive sd up. One group per
// kind and resource (group kind x the instance's dimensions + resource), at most kExplorationTasksPerKind tasks
// each; ordered by planned start, latest first: the tail of a list plan is where cores idle. Throws
// std::invalid_argument for a task out of range, a resource the instance does not have, or a callback missing.
// knowledge::explorable_task makes a fitted task's (which resources it moves along, and why).
[[nodiscard]] std::vector<ExplorationOption> slack_exploration_options(const sched::Instance& instance,
                                                                      const sched::Schedule& schedule,
                                                                      const std::vector<ExplorableTask>& tasks);

}  // namespace cosched::sim
