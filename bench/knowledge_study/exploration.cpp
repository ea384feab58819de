#include "knowledge_study/exploration.hpp"

#include <algorithm>
#include <numeric>
#include <set>

#include "cosched/knowledge/strategy.hpp"

namespace cosched::bench {

namespace {

// The most cores in use at any time in [begin, end) by the schedule's tasks (a task's run is [start, start + d)).
int peak_cores(const sched::Schedule& schedule, double begin, double end) {
  // The usage only rises at a task's start: the peak over [begin, end) is the usage at `begin` or at a start inside.
  std::vector<double> instants{begin};
  for (const sched::ScheduledTask& task : schedule.tasks) {
    if (task.start > begin && task.start < end) instants.push_back(task.start);
  }
  int peak = 0;
  for (const double at : instants) {
    int used = 0;
    for (const sched::ScheduledTask& task : schedule.tasks) {
      if (task.start <= at && at < task.start + task.duration) used += task.alloc[0];
    }
    peak = std::max(peak, used);
  }
  return peak;
}

}  // namespace

std::vector<ExplorationGrant> explore_idle_cores(sched::Schedule& schedule, int node_cores,
                                                 const std::vector<ExplorationWish>& wishes) {
  std::vector<std::size_t> order(wishes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double start_a = schedule.tasks.at(wishes[a].task).start;
    const double start_b = schedule.tasks.at(wishes[b].task).start;
    return start_a != start_b ? start_a > start_b : wishes[a].task > wishes[b].task;
  });
  std::vector<ExplorationGrant> grants;
  std::vector<std::pair<std::size_t, int>> granted;  // (kind, count)
  std::vector<bool> done(wishes.size(), false);
  // Passes of at most one grant per kind, each at most its share of the idle cores, so that the idle cores of a
  // naive run teach every kind a count rather than one task the largest.
  for (bool any = true; any;) {
    any = false;
    std::set<std::size_t> wishing;
    for (std::size_t w = 0; w < wishes.size(); ++w) {
      if (!done[w]) wishing.insert(wishes[w].kind);
    }
    std::set<std::size_t> served;
    for (const std::size_t w : order) {
      const ExplorationWish& wish = wishes[w];
      if (done[w] || served.contains(wish.kind)) continue;
      sched::ScheduledTask& task = schedule.tasks.at(wish.task);
      const int idle = node_cores - peak_cores(schedule, task.start, task.start + task.duration);
      const int share = std::max(1, idle / static_cast<int>(wishing.size()));
      for (const int count : wish.counts) {
        if (count <= task.alloc[0] || count - task.alloc[0] > std::min(idle, share)) continue;
        if (std::find(granted.begin(), granted.end(), std::pair{wish.kind, count}) != granted.end()) continue;
        grants.push_back({wish.task, task.alloc[0], count});
        granted.emplace_back(wish.kind, count);
        task.alloc[0] = count;
        done[w] = true;
        served.insert(wish.kind);
        any = true;
        break;
      }
    }
  }
  return grants;
}

std::vector<int> unexplored_counts(int node_cores, const std::vector<int>& measured) {
  std::vector<int> counts;
  for (const int count : knowledge::halving_cores(node_cores)) {
    if (count > 1 && std::find(measured.begin(), measured.end(), count) == measured.end()) counts.push_back(count);
  }
  return counts;
}

}  // namespace cosched::bench
