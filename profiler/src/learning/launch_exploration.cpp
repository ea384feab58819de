// What a batch's launch may teach (cosched/profiler/launch_exploration.hpp).
#include "cosched/profiler/launch_exploration.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace cosched::profiler {

namespace {

bool has_run_at(const KindState& state, int cores, int chunks) {
  return std::any_of(state.known.runs.begin(), state.known.runs.end(), [&](const KnownRun& known) {
    return known.run.cores == cores && known.run.fast_chunks == chunks;
  });
}

// The amounts worth a try above `planned` of a resource of `capacity`: 2x, 4x ... (from 1 when none is planned) and
// all of it, the most first.
std::vector<int> larger_amounts(int planned, int capacity) {
  std::vector<int> amounts;
  if (planned < capacity) amounts.push_back(capacity);
  for (int amount = std::max(1, 2 * planned); amount < capacity; amount *= 2) amounts.push_back(amount);
  std::sort(amounts.begin(), amounts.end(), std::greater<>());
  return amounts;
}

// The option of task j moving resource `resource` (0 cores, 1 fast chunks) to amounts its kind has no run at, each
// at the fit's time one predictive sd above its median there.
sim::ExplorationOption option_along(std::size_t j, std::size_t resource, const KindState& state,
                                    const knowledge::FittedTask& fit, const sched::Instance& instance,
                                    const std::vector<int>& planned) {
  sim::ExplorationOption option{j, 0, {}};
  for (const int amount : larger_amounts(planned[resource], instance.space().capacities()[resource])) {
    std::vector<int> alloc = planned;
    alloc[resource] = amount;
    const int chunks = alloc.size() > 1 ? alloc[1] : 0;
    if (has_run_at(state, alloc[0], chunks)) continue;
    const double median = instance.time(j, alloc);
    if (!std::isfinite(median)) continue;
    option.choices.push_back({alloc, median * std::exp(fit.predictive_log_sd(alloc[0], chunks))});
  }
  return option;
}

}  // namespace

std::vector<sim::ExplorationOption> exploration_options(const config::Workload& workload, const BatchKnowledge& known,
                                                        const sched::Instance& instance,
                                                        const sched::Schedule& schedule) {
  // By kind and resource (2k: kind k's cores, 2k + 1: its fast chunks), in a set order.
  std::map<std::size_t, std::vector<sim::ExplorationOption>> by_kind;
  for (std::size_t j = 0; j < workload.tasks.size(); ++j) {
    const KindState& state = known.of(workload.tasks[j]);
    const auto fit = state.fits.find(work_of(workload.tasks[j]));
    if (fit == state.fits.end()) continue;  // unknown: a guess at one core, nothing to compare a move with
    const auto kind = static_cast<std::size_t>(&state - known.kinds.data());
    // Fast chunks only where the kind's fit is over them (a command is not placed where the tier cannot).
    const std::size_t resources = std::min(instance.dimensions(), fit->second->space().dimensions());
    for (std::size_t resource = 0; resource < std::min<std::size_t>(resources, 2); ++resource) {
      sim::ExplorationOption option = option_along(j, resource, state, *fit->second, instance, schedule.tasks[j].alloc);
      if (!option.choices.empty()) by_kind[2 * kind + resource].push_back(std::move(option));
    }
  }
  std::vector<sim::ExplorationOption> options;
  for (auto& [group, tasks] : by_kind) {
    std::stable_sort(tasks.begin(), tasks.end(), [&](const sim::ExplorationOption& a, const sim::ExplorationOption& b) {
      return schedule.tasks[a.task].start > schedule.tasks[b.task].start;
    });
    if (tasks.size() > kExplorationTasksPerKind) tasks.resize(kExplorationTasksPerKind);
    for (sim::ExplorationOption& option : tasks) {
      option.group = group;
      options.push_back(std::move(option));
    }
  }
  // Latest start first across kinds too: the tail's idle cores go to the tasks next to them.
  std::stable_sort(options.begin(), options.end(), [&](const sim::ExplorationOption& a, const sim::ExplorationOption& b) {
    return schedule.tasks[a.task].start > schedule.tasks[b.task].start;
  });
  return options;
}

}  // namespace cosched::profiler
