#include "knowledge_study/naive_ways.hpp"

#include <algorithm>

namespace cosched::bench {

sched::Schedule naive_schedule(const sched::Instance& instance, const std::vector<std::size_t>& order, int cores) {
  std::vector<int> each(instance.dimensions(), 0);
  each.front() = cores;
  return sched::naive_schedule(instance, order, each);
}

std::pair<double, std::string> best_naive(const sched::Instance& truth,
                                          const std::function<double(const sim::LaunchPlan&)>& makespan) {
  const auto run = [&](const sched::Schedule& schedule) { return makespan(sim::plan_from_schedule(truth, schedule)); };
  std::vector<std::size_t> longest = sched::file_order(truth.task_count());
  std::vector<int> one(truth.dimensions(), 0);
  one.front() = 1;
  std::stable_sort(longest.begin(), longest.end(),
                   [&](std::size_t a, std::size_t b) { return truth.time(a, one) > truth.time(b, one); });
  const std::vector<int> whole = sched::capacities_of(truth.resources());
  const std::vector<std::size_t> in_file = sched::file_order(truth.task_count());
  std::vector<std::pair<double, std::string>> ways{{run(naive_schedule(truth, in_file)), "xargs"},
                                                   {run(naive_schedule(truth, longest)), "longest-first"},
                                                   {run(sched::naive_schedule(truth, in_file, whole)), "one-by-one"}};
  return *std::min_element(ways.begin(), ways.end());
}

}  // namespace cosched::bench
