#pragma once
// A batch run the ways a user runs it without a planner — what cosched is measured against (issue 39): every task at
// one allocation, in a given order, each as soon as one of the node's slots of that allocation is free. `xargs -P
// <cores>` is one core each in the file's order; the same longest first; one task after the other on the whole node
// is every core each. Pure: the times are the instance's. `cosched run` plans a batch it knows nothing of this way
// (profiler::naive_schedule), and predicts these ways beside its plan; the simulated studies price them on the truth.
#include <cstddef>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sched {

// The naive way's cores per task: 1 (`xargs -P <cores>`), or with fewer tasks than cores the node shared evenly,
// node_cores / tasks each (xargs would leave the other cores idle for the whole batch: on a 64-core node with 24
// tasks, 3.6 x the best naive way in the simulated study, docs/knowledge.md). 1 for no task.
[[nodiscard]] int naive_cores(int node_cores, std::size_t tasks);

// 0, 1, ..., count - 1: the file's order.
[[nodiscard]] std::vector<std::size_t> file_order(std::size_t count);

// Every task at `each` (an amount per resource of `instance`, at least one core), in `order` (a permutation of the
// tasks), on the first of capacity / each[0] slots to free up, by the instance's times; the makespan filled in and
// launched greedily (launch_rule "greedy": a task that ends early frees its slot at once). Throws UsageError for an
// `each` of another size, outside the capacities or without a core, or an order that is not a permutation.
[[nodiscard]] Schedule naive_schedule(const Instance& instance, const std::vector<std::size_t>& order,
                                      const std::vector<int>& each);

}  // namespace cosched::sched
