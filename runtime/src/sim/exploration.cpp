// Exploring in a plan's slack (cosched/sim/exploration.hpp).
#include "cosched/sim/exploration.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "cosched/sim/gantt.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::sim {

namespace {

// The plan's makespan as predicted (the contention-aware run when the plan has a bandwidth model), `durations`
// standing in for the schedule's.
double makespan_on(const sched::Instance& instance, const sched::Schedule& schedule,
                   const std::vector<double>& durations) {
  LaunchPlan plan = plan_from_schedule(instance, schedule);
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) plan.tasks[j].predicted_duration = durations[j];
  return predict_plan(plan).leading().observed_makespan;
}

void check_option(const sched::Instance& instance, const ExplorationOption& option) {
  if (option.task >= instance.task_count()) {
    throw std::invalid_argument(fmt::format("explore_in_slack: task {} of {}", option.task, instance.task_count()));
  }
  const sched::AllocationSpace& space = instance.space();
  for (const ExplorationChoice& choice : option.choices) {
    const bool fits = choice.alloc.size() == space.dimensions() && !choice.alloc.empty() && choice.alloc[0] >= 1 &&
                      std::equal(choice.alloc.begin(), choice.alloc.end(), space.capacities().begin(),
                                 [](int amount, int capacity) { return amount >= 0 && amount <= capacity; });
    if (!fits || !(choice.cautious_s > 0.0) || !std::isfinite(choice.cautious_s)) {
      throw std::invalid_argument(
          fmt::format("explore_in_slack: task {}: a choice outside the node or without a time", option.task));
    }
  }
}

// Every task's start as the plan's launch rule gives it on the schedule's durations (the paper model's clock).
void restart_by_launch_rule(const sched::Instance& instance, sched::Schedule& schedule) {
  const LaunchPlan plan = plan_from_schedule(instance, schedule);
  const EngineResult run = predict(plan, "auto");
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) schedule.tasks[j].start = run.runs[j].launch.start;
  schedule.makespan = sched::completion_time(schedule.tasks);
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

ExplorationOption option_along(const sched::Instance& instance, const ExplorableTask& task, std::size_t resource,
                               const std::vector<int>& planned) {
  ExplorationOption option{task.task, task.kind * instance.dimensions() + resource, {}};
  for (const int amount : larger_amounts(planned[resource], instance.space().capacities()[resource])) {
    std::vector<int> alloc = planned;
    alloc[resource] = amount;
    if (task.ran_at(alloc)) continue;
    const double median = instance.time(task.task, alloc);
    if (!std::isfinite(median)) continue;
    option.choices.push_back({alloc, median * std::exp(task.log_sd_at(alloc))});
  }
  return option;
}

}  // namespace

std::vector<ExplorationOption> slack_exploration_options(const sched::Instance& instance,
                                                         const sched::Schedule& schedule,
                                                         const std::vector<ExplorableTask>& tasks) {
  std::map<std::size_t, std::vector<ExplorationOption>> by_group;  // a set order: by kind, then resource
  for (const ExplorableTask& task : tasks) {
    const bool outside = std::any_of(task.resources.begin(), task.resources.end(),
                                     [&](std::size_t resource) { return resource >= instance.dimensions(); });
    if (task.task >= schedule.tasks.size() || task.task >= instance.task_count() || outside) {
      throw std::invalid_argument(fmt::format("slack_exploration_options: task {} of {}, along resources {} of {}",
                                              task.task, instance.task_count(), fmt::join(task.resources, ", "),
                                              instance.dimensions()));
    }
    if (!task.ran_at || !task.log_sd_at) {
      throw std::invalid_argument(fmt::format("slack_exploration_options: task {} without what its kind knows",
                                              task.task));
    }
    for (const std::size_t resource : task.resources) {
      ExplorationOption option = option_along(instance, task, resource, schedule.tasks[task.task].alloc);
      if (!option.choices.empty()) by_group[option.group].push_back(std::move(option));
    }
  }
  const auto latest_first = [&](const ExplorationOption& a, const ExplorationOption& b) {
    return schedule.tasks[a.task].start > schedule.tasks[b.task].start;
  };
  std::vector<ExplorationOption> options;
  for (auto& [group, offered] : by_group) {
    std::stable_sort(offered.begin(), offered.end(), latest_first);
    if (offered.size() > kExplorationTasksPerKind) offered.resize(kExplorationTasksPerKind);
    for (ExplorationOption& option : offered) options.push_back(std::move(option));
  }
  // Latest start first across kinds too: the tail's idle cores go to the tasks next to them.
  std::stable_sort(options.begin(), options.end(), latest_first);
  return options;
}

ExplorationResult explore_in_slack(const sched::Instance& instance, sched::Schedule& schedule,
                                   const std::vector<ExplorationOption>& options) {
  for (const ExplorationOption& option : options) check_option(instance, option);
  std::vector<double> durations;  // the schedule's, with the cautious time of every task moved so far
  for (const sched::ScheduledTask& task : schedule.tasks) durations.push_back(task.duration);
  ExplorationResult result{{}, makespan_on(instance, schedule, durations)};
  const bool packed = std::any_of(schedule.tasks.begin(), schedule.tasks.end(),
                                  [](const sched::ScheduledTask& task) { return task.pack >= 0; });
  if (packed) return result;

  std::set<std::size_t> groups_explored;
  std::set<std::size_t> tasks_moved;  // a task moves once: a second option of it was made for where it was
  for (const ExplorationOption& option : options) {
    if (groups_explored.count(option.group) > 0 || tasks_moved.count(option.task) > 0) continue;
    sched::ScheduledTask& task = schedule.tasks[option.task];
    for (const ExplorationChoice& choice : option.choices) {
      if (choice.alloc == task.alloc) continue;
      sched::Schedule tried = schedule;
      tried.tasks[option.task].alloc = choice.alloc;
      std::vector<double> tried_durations = durations;
      tried_durations[option.task] = choice.cautious_s;
      // "Does not grow", within rounding: a task moved into a core's idle tail leaves the last end where it was.
      if (makespan_on(instance, tried, tried_durations) > result.makespan_s * (1.0 + 1e-9)) continue;
      result.steps.push_back({option.task, task.alloc, choice.alloc, choice.cautious_s});
      task.alloc = choice.alloc;
      task.duration = instance.time(option.task, choice.alloc);
      durations = std::move(tried_durations);
      groups_explored.insert(option.group);
      tasks_moved.insert(option.task);
      break;
    }
  }
  if (!result.steps.empty()) restart_by_launch_rule(instance, schedule);
  return result;
}

}  // namespace cosched::sim
