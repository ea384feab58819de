#pragma once
// The ways a user runs a batch without cosched, as the simulated studies price them (knowledge_study's recurring
// batches, first_run_study): `xargs -P <cores>` in the file's order, the same longest first, one task after the
// other on the whole node — and the naive way `cosched run` takes with nothing known (sched::naive_cores on
// sched::naive_schedule, as profiler::naive_schedule makes it: the studies do not link the profiler's process code).
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/naive.hpp"
#include "cosched/sched/schedule.hpp"
#include "cosched/sim/plan.hpp"

namespace cosched::bench {

// sched::naive_schedule on `cores` cores each and nothing of the other resources (profiler::naive_schedule with
// sched::naive_cores).
[[nodiscard]] sched::Schedule naive_schedule(const sched::Instance& instance, const std::vector<std::size_t>& order,
                                             int cores = 1);

// The best of the ways a user runs the batch without cosched (xargs, longest-first by the one-core time, and
// one-by-one on the whole node: every resource at its capacity), each a plan of `truth` whose makespan `makespan`
// says (the truth as the plan predicts it, or a run of it on a simulated clock). Returns it and the way's name.
[[nodiscard]] std::pair<double, std::string> best_naive(const sched::Instance& truth,
                                                        const std::function<double(const sim::LaunchPlan&)>& makespan);

}  // namespace cosched::bench
