// The ways a batch runs without a planner (naive.hpp).
#include "cosched/sched/naive.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

#include "cosched/common/error.hpp"

namespace cosched::sched {

int naive_cores(int node_cores, std::size_t tasks) {
  if (tasks == 0 || tasks >= static_cast<std::size_t>(std::max(node_cores, 1))) return 1;
  return node_cores / static_cast<int>(tasks);
}

std::vector<std::size_t> file_order(std::size_t count) {
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

Schedule naive_schedule(const Instance& instance, const std::vector<std::size_t>& order,
                        const std::vector<int>& each) {
  const std::vector<int> capacities = capacities_of(instance.resources());
  bool fits = each.size() == capacities.size() && !each.empty() && each.front() >= 1;
  for (std::size_t r = 0; fits && r < each.size(); ++r) fits = each[r] >= 0 && each[r] <= capacities[r];
  if (!fits) {
    throw UsageError(fmt::format("a naive schedule's allocation ({}) is not one of the node's ({}) with a core",
                                 fmt::join(each, ", "), fmt::join(capacities, ", ")));
  }
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != file_order(instance.task_count())) {
    throw UsageError(fmt::format("a naive schedule's order of {} task(s) is not a permutation of the instance's {}",
                                 order.size(), instance.task_count()));
  }
  Schedule schedule;
  schedule.algorithm = "naive";
  schedule.launch_rule = "greedy";
  std::vector<double> free_at(static_cast<std::size_t>(capacities.front() / each.front()), 0.0);  // per slot
  schedule.tasks.resize(instance.task_count());
  for (const std::size_t j : order) {
    const auto slot = std::min_element(free_at.begin(), free_at.end());
    const double duration = instance.time(j, each);
    schedule.tasks[j] = {each, *slot, duration, -1};
    *slot += duration;
  }
  schedule.makespan = completion_time(schedule.tasks);
  return schedule;
}

}  // namespace cosched::sched
