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

// At most this many tasks of one kind are tried (the latest starting first): one of them explores, and each try
// is a prediction of the whole plan.
inline constexpr std::size_t kExplorationTasksPerKind = 3;

// For every task of a fitted kind in `schedule` (a plan of `instance`, knowledge_instance's of `workload` and
// `known`), two options: more cores at its planned fast chunks, and more fast chunks at its planned cores (where its
// kind's fit is over fast chunks: not a command the tier cannot place). Each tries the amounts its kind has no run
// at — twice, four times ... the planned amount (from 1 when none) and the node's all, the most first (a far point
// tells a fit more than a near one) — each at the fit's time one predictive sd above its median there. Tasks of
// unknown kinds (a guess, one core only) have none. One group per kind and resource, at most
// kExplorationTasksPerKind tasks each; ordered by planned start, latest first: the tail of a list plan is where
// cores idle.
[[nodiscard]] std::vector<sim::ExplorationOption> exploration_options(const config::Workload& workload,
                                                                      const BatchKnowledge& known,
                                                                      const sched::Instance& instance,
                                                                      const sched::Schedule& schedule);

}  // namespace cosched::profiler
