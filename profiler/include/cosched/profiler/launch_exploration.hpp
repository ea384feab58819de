#pragma once
// What a batch's launch may teach (issue 39): the moves sim::explore_in_slack may take, from what the knowledge
// store holds of each kind. A kind known at a few core counts only — after the naive first run, one — learns its
// speed-up when one of its tasks runs where the plan has a core idle anyway; the launch keeps what it took
// (learn_from_launch), so the next batch's fit has one more core count without a profiling run.
#include <cstddef>
#include <vector>

#include "cosched/config/workload.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"
#include "cosched/sim/exploration.hpp"

namespace cosched::profiler {

// For every task of a fitted kind in `schedule` (a plan of `instance`, knowledge_instance's of `workload` and
// `known`), sim::slack_exploration_options's moves by knowledge::explorable_task's rule: more fast chunks at its
// planned cores where its kind's fit is over fast chunks (not a command the tier cannot place), and more cores at
// its planned fast chunks while its kind's fit over cores stands on one core count, to amounts its kind has no run
// at (its runs in the store), at the fit's time one predictive sd up. Tasks of unknown kinds (a guess, one core
// only) have none.
[[nodiscard]] std::vector<sim::ExplorationOption> exploration_options(const config::Workload& workload,
                                                                      const BatchKnowledge& known,
                                                                      const sched::Instance& instance,
                                                                      const sched::Schedule& schedule);

}  // namespace cosched::profiler
