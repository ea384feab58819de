#include "knowledge_study/naive_ways.hpp"

#include <algorithm>
#include <numeric>

namespace cosched::bench {

int naive_cores(int node_cores, std::size_t tasks) {
  return tasks == 0 || tasks >= static_cast<std::size_t>(node_cores) ? 1 : node_cores / static_cast<int>(tasks);
}

sched::Schedule naive_schedule(const sched::Instance& instance, const std::vector<std::size_t>& order,
                               const std::vector<int>& each) {
  sched::Schedule schedule;
  schedule.algorithm = "naive";
  schedule.launch_rule = "greedy";
  const int cores = instance.resources().front().capacity;
  std::vector<double> free_at(static_cast<std::size_t>(cores / each.front()), 0.0);
  schedule.tasks.resize(instance.task_count());
  for (const std::size_t j : order) {
    const auto slot = std::min_element(free_at.begin(), free_at.end());
    const double duration = instance.time(j, each);
    schedule.tasks[j] = {each, *slot, duration, -1};
    *slot += duration;
  }
  return schedule;
}

sched::Schedule naive_schedule(const sched::Instance& instance, const std::vector<std::size_t>& order, int cores) {
  std::vector<int> each(instance.dimensions(), 0);
  each.front() = cores;
  return naive_schedule(instance, order, each);
}

std::vector<std::size_t> file_order(std::size_t count) {
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

std::pair<double, std::string> best_naive(const sched::Instance& truth,
                                          const std::function<double(const sim::LaunchPlan&)>& makespan) {
  const auto run = [&](const sched::Schedule& schedule) { return makespan(sim::plan_from_schedule(truth, schedule)); };
  std::vector<std::size_t> longest = file_order(truth.task_count());
  std::vector<int> one(truth.dimensions(), 0);
  one.front() = 1;
  std::stable_sort(longest.begin(), longest.end(),
                   [&](std::size_t a, std::size_t b) { return truth.time(a, one) > truth.time(b, one); });
  const std::vector<int> whole = sched::capacities_of(truth.resources());
  const std::vector<std::size_t> in_file = file_order(truth.task_count());
  std::vector<std::pair<double, std::string>> ways{{run(naive_schedule(truth, in_file)), "xargs"},
                                                   {run(naive_schedule(truth, longest)), "longest-first"},
                                                   {run(naive_schedule(truth, in_file, whole)), "one-by-one"}};
  return *std::min_element(ways.begin(), ways.end());
}

}  // namespace cosched::bench
