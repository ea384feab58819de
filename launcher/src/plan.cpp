#include "cosched/launcher/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "cosched/common/error.hpp"
#include "cosched/sched/schedule_document.hpp"

namespace cosched::launcher {

bool LaunchPlan::is_pack() const noexcept {
  return !tasks.empty() && std::all_of(tasks.begin(), tasks.end(), [](const auto& t) { return t.pack >= 0; });
}

double LaunchPlan::predicted_makespan() const noexcept {
  double makespan = 0.0;
  for (const auto& task : tasks) makespan = std::max(makespan, task.planned_end());
  return makespan;
}

LaunchPlan plan_from_schedule(const sched::Instance& instance, const sched::Schedule& schedule) {
  LaunchPlan plan;
  plan.algorithm = schedule.algorithm;
  for (const auto& resource : instance.resources()) {
    plan.resource_names.push_back(resource.name);
    plan.capacities.push_back(resource.capacity);
  }
  plan.lower_bound = schedule.lower_bound;
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    const auto& task = schedule.tasks[j];
    plan.tasks.push_back({instance.tasks()[j].id, task.alloc, task.start, task.duration, task.pack});
  }
  return plan;
}

LaunchPlan load_schedule_plan(const std::filesystem::path& path, std::vector<std::string> resource_names,
                              std::vector<int> capacities) {
  const std::string file = path.string();
  const sched::ScheduleDocument document = sched::load_schedule_document(path);
  std::vector<sched::Resource> node;
  for (std::size_t i = 0; i < resource_names.size(); ++i) node.push_back({resource_names[i], capacities[i]});
  const std::vector<sched::Resource> resources = sched::resolve_schedule_resources(document, node, file);

  LaunchPlan plan;
  plan.algorithm = document.algorithm;
  plan.lower_bound = document.lower_bound;
  for (const auto& resource : resources) {
    plan.resource_names.push_back(resource.name);
    plan.capacities.push_back(resource.capacity);
  }
  for (const auto& [id, scheduled] : document.tasks) {
    const std::string where = fmt::format("{}: task \"{}\"", file, id);
    for (std::size_t i = 0; i < scheduled.alloc.size(); ++i) {
      if (scheduled.alloc[i] > plan.capacities[i]) {
        throw InputError(where, fmt::format("alloc[{}] = {} {} outside 0..{} of this node", i, scheduled.alloc[i],
                                            plan.resource_names[i], plan.capacities[i]));
      }
    }
    if (scheduled.alloc.front() < 1) throw InputError(where, "a task needs at least one core (alloc[0] >= 1)");
    plan.tasks.push_back({id, scheduled.alloc, scheduled.start, scheduled.duration, scheduled.pack});
  }
  return plan;
}

LaunchPlan remaining_plan(const LaunchPlan& plan, const std::vector<std::string>& done_ids) {
  const std::set<std::string> done(done_ids.begin(), done_ids.end());
  LaunchPlan rest = plan;
  rest.tasks.clear();
  double earliest = std::numeric_limits<double>::infinity();
  for (const auto& task : plan.tasks) {
    if (done.count(task.id) != 0) continue;
    rest.tasks.push_back(task);
    earliest = std::min(earliest, task.planned_start);
  }
  for (auto& task : rest.tasks) task.planned_start -= earliest;
  return rest;
}

}  // namespace cosched::launcher
