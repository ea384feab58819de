#include "cosched/sched/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <stdexcept>

namespace cosched::sched {

namespace {

// Durations and makespans produced by this library are exact copies; the tolerance only absorbs schedules that
// were written by other tools with fewer digits.
bool nearly_equal(double a, double b) { return a == b || std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), 1.0); }

struct Event {
  double time;
  bool is_start;
  std::size_t task;
};

void check_resources(const Instance& instance, const Schedule& schedule, std::vector<std::string>& problems) {
  std::vector<Event> events;
  events.reserve(2 * schedule.tasks.size());
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    const auto& task = schedule.tasks[j];
    if (task.duration <= 0.0) continue;  // occupies no instant
    events.push_back({task.start, true, j});
    events.push_back({task.start + task.duration, false, j});
  }
  // Intervals are half-open: at equal times, completions release before starts acquire.
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.is_start < b.is_start;
  });
  const std::size_t d = instance.dimensions();
  std::vector<long long> used(d, 0);
  std::vector<bool> reported(d, false);
  for (const auto& event : events) {
    const auto& alloc = schedule.tasks[event.task].alloc;
    for (std::size_t i = 0; i < d; ++i) used[i] += event.is_start ? alloc[i] : -alloc[i];
    if (!event.is_start) continue;
    for (std::size_t i = 0; i < d; ++i) {
      if (!reported[i] && used[i] > instance.space().capacity(i)) {
        problems.push_back(fmt::format("resource \"{}\" is over capacity at time {}: {} > {}",
                                       instance.resources()[i].name, event.time, used[i],
                                       instance.space().capacity(i)));
        reported[i] = true;
      }
    }
  }
}

void check_packs(const Instance& instance, const Schedule& schedule, std::vector<std::string>& problems) {
  const auto& tasks = schedule.tasks;
  const bool any_pack = std::any_of(tasks.begin(), tasks.end(), [](const auto& t) { return t.pack >= 0; });
  if (!any_pack) return;
  std::map<int, std::pair<double, double>> packs;  // pack -> (start, end)
  for (std::size_t j = 0; j < tasks.size(); ++j) {
    const auto& id = instance.tasks()[j].id;
    if (tasks[j].pack < 0) {
      problems.push_back(fmt::format("task \"{}\": no pack in a pack schedule", id));
      continue;
    }
    auto [it, inserted] = packs.try_emplace(tasks[j].pack, tasks[j].start, tasks[j].start);
    if (!inserted && it->second.first != tasks[j].start) {
      problems.push_back(fmt::format("task \"{}\": starts at {} but pack {} starts at {}", id, tasks[j].start,
                                     tasks[j].pack, it->second.first));
    }
    it->second.second = std::max(it->second.second, tasks[j].start + tasks[j].duration);
  }
  double previous_end = 0.0;
  for (const auto& [pack, span] : packs) {
    if (span.first < previous_end) {
      problems.push_back(fmt::format("pack {} starts at {} before the previous pack ends at {}", pack, span.first,
                                     previous_end));
    }
    previous_end = span.second;
  }
}

}  // namespace

double weighted_completion_sum(const Instance& instance, const std::vector<ScheduledTask>& tasks) {
  assert(tasks.size() == instance.task_count());
  double sum = 0.0;
  for (std::size_t j = 0; j < tasks.size(); ++j) sum += instance.tasks()[j].weight * (tasks[j].start + tasks[j].duration);
  return sum;
}

double completion_time(const std::vector<ScheduledTask>& tasks) {
  double makespan = 0.0;
  for (const auto& task : tasks) makespan = std::max(makespan, task.start + task.duration);
  return makespan;
}

Schedule retimed(const Instance& instance, Schedule schedule) {
  if (schedule.tasks.size() != instance.task_count()) {
    throw std::logic_error(fmt::format("retimed: a schedule of {} tasks on an instance of {}", schedule.tasks.size(),
                                       instance.task_count()));
  }
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    ScheduledTask& task = schedule.tasks[j];
    const double time = instance.time(j, task.alloc);
    if (!(time <= task.duration * (1.0 + 1e-12))) {
      throw std::logic_error(fmt::format("retimed: task {} takes {} s in the instance, longer than the {} s it was "
                                         "scheduled with",
                                         instance.tasks()[j].id, time, task.duration));
    }
    task.duration = time;
  }
  schedule.makespan = completion_time(schedule.tasks);
  return schedule;
}

std::vector<std::string> find_violations(const Instance& instance, const Schedule& schedule) {
  std::vector<std::string> problems;
  if (schedule.tasks.size() != instance.task_count()) {
    problems.push_back(fmt::format("schedule has {} tasks, the instance {}", schedule.tasks.size(),
                                   instance.task_count()));
    return problems;
  }
  bool allocations_ok = true;
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    const auto& task = schedule.tasks[j];
    const auto& id = instance.tasks()[j].id;
    if (!instance.space().contains(task.alloc)) {
      problems.push_back(fmt::format("task \"{}\": allocation [{}] is outside the capacities", id,
                                     fmt::join(task.alloc, ", ")));
      allocations_ok = false;
      continue;
    }
    if (!std::isfinite(task.start) || task.start < 0.0) {
      problems.push_back(fmt::format("task \"{}\": start time {} is not a finite time >= 0", id, task.start));
    }
    const double expected = instance.time(j, task.alloc);
    if (!std::isfinite(task.duration) || !nearly_equal(task.duration, expected)) {
      problems.push_back(fmt::format("task \"{}\": duration {} but t([{}]) = {}", id, task.duration,
                                     fmt::join(task.alloc, ", "), expected));
    }
  }
  if (!allocations_ok) return problems;
  check_resources(instance, schedule, problems);
  check_packs(instance, schedule, problems);
  const double makespan = completion_time(schedule.tasks);
  if (!nearly_equal(schedule.makespan, makespan)) {
    problems.push_back(fmt::format("makespan {} but the last task completes at {}", schedule.makespan, makespan));
  }
  return problems;
}

void require_valid(const Instance& instance, const Schedule& schedule) {
  const auto problems = find_violations(instance, schedule);
  if (problems.empty()) return;
  throw std::logic_error(fmt::format("{} produced an invalid schedule: {}", schedule.algorithm,
                                     fmt::join(problems, "; ")));
}

}  // namespace cosched::sched
