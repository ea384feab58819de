#include "cosched/sim/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "cosched/common/error.hpp"
#include "cosched/sched/schedule_document.hpp"

namespace cosched::sim {

namespace {

// Every plan takes its resource types and capacities from one list: the instance's, or the node's as the schedule
// file uses them.
void use_resources(LaunchPlan& plan, const std::vector<sched::Resource>& resources) {
  for (const auto& resource : resources) {
    plan.resource_names.push_back(resource.name);
    plan.capacities.push_back(resource.capacity);
  }
}

}  // namespace

bool LaunchPlan::is_pack() const noexcept {
  return !tasks.empty() && std::all_of(tasks.begin(), tasks.end(), [](const auto& t) { return t.pack >= 0; });
}

double LaunchPlan::predicted_makespan() const noexcept {
  double makespan = 0.0;
  for (const auto& task : tasks) makespan = std::max(makespan, task.planned_end());
  return makespan;
}

double LaunchPlan::duration(std::size_t task, std::span<const int> alloc) const {
  return online ? online::job_time(*online, task, alloc) : tasks[task].predicted_duration;
}

LaunchPlan online_plan(std::shared_ptr<const online::OnlineWorkload> workload,
                       const online::OnlineOptions& options) {
  LaunchPlan plan;
  plan.algorithm = "online";
  const sched::Instance& instance = workload->instance;
  use_resources(plan, instance.resources());
  plan.tasks.reserve(instance.task_count());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    PlannedTask task;
    task.id = instance.tasks()[j].id;
    task.demand = instance.space().decode(workload->reference_alloc[j]);
    task.release = workload->arrivals[j].release;
    task.planned_start = task.release;
    task.predicted_duration = workload->reference_time[j];
    plan.tasks.push_back(std::move(task));
  }
  plan.online = std::move(workload);
  plan.online_options = options;
  return plan;
}

LaunchPlan plan_from_schedule(const sched::Instance& instance, const sched::Schedule& schedule) {
  LaunchPlan plan;
  plan.algorithm = schedule.algorithm;
  plan.launch_rule = schedule.launch_rule;
  use_resources(plan, instance.resources());
  plan.lower_bound = schedule.lower_bound;
  plan.bandwidth = instance.bandwidth();
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    const auto& task = schedule.tasks[j];
    plan.tasks.push_back({instance.tasks()[j].id, task.alloc, task.start, task.duration, task.pack,
                          plan.bandwidth.empty() ? sched::FlowDemand{} : instance.demand(j, task.alloc)});
  }
  return plan;
}

void attach_bandwidth(LaunchPlan& plan, const sched::Instance& instance, const std::string& source) {
  // Nothing to attach: the instance only said what the tasks run, and that was never matched this strictly.
  if (instance.bandwidth().empty()) return;
  const auto& resources = instance.resources();
  if (plan.resource_names.size() > resources.size()) {
    throw InputError(source, fmt::format("the schedule allocates {} resources, the instance has {}: not the "
                                         "instance the schedule was made from",
                                         plan.resource_names.size(), resources.size()));
  }
  for (std::size_t i = 0; i < plan.resource_names.size(); ++i) {
    if (plan.resource_names[i] != resources[i].name) {
      throw InputError(source, fmt::format("resource {} is \"{}\" in the schedule, \"{}\" in the instance", i,
                                           plan.resource_names[i], resources[i].name));
    }
  }
  std::map<std::string, std::size_t> index;
  for (std::size_t j = 0; j < instance.task_count(); ++j) index.emplace(instance.tasks()[j].id, j);
  std::vector<sched::FlowDemand> flows;
  for (const PlannedTask& task : plan.tasks) {
    const auto found = index.find(task.id);
    if (found == index.end()) {
      throw InputError(source, fmt::format("the schedule's task \"{}\" is not in the instance", task.id));
    }
    // A cores-only schedule on a cores + fast chunks instance: no fast chunks.
    std::vector<int> alloc = task.demand;
    alloc.resize(resources.size(), 0);
    for (std::size_t i = 0; i < task.demand.size(); ++i) {
      if (task.demand[i] > resources[i].capacity) {
        throw InputError(source, fmt::format("task \"{}\": alloc[{}] = {} is beyond the instance's {} {}", task.id, i,
                                             task.demand[i], resources[i].capacity, resources[i].name));
      }
    }
    flows.push_back(instance.demand(found->second, alloc));
  }
  // Nothing changes unless every task matched.
  plan.bandwidth = instance.bandwidth();
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) plan.tasks[j].flow = std::move(flows[j]);
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
  plan.launch_rule = document.launch_rule;
  plan.lower_bound = document.lower_bound;
  use_resources(plan, resources);
  // The model the schedule carries (docs/formats.md): a launch of the file alone still predicts contention.
  plan.bandwidth = document.bandwidth;
  for (const auto& entry : document.tasks) {
    const std::string& id = entry.id;
    const sched::ScheduledTask& scheduled = entry.task;
    const std::string where = fmt::format("{}: task \"{}\"", file, id);
    for (std::size_t i = 0; i < scheduled.alloc.size(); ++i) {
      if (scheduled.alloc[i] > plan.capacities[i]) {
        throw InputError(where, fmt::format("alloc[{}] = {} {} outside 0..{} of this node", i, scheduled.alloc[i],
                                            plan.resource_names[i], plan.capacities[i]));
      }
    }
    if (scheduled.alloc.front() < 1) throw InputError(where, "a task needs at least one core (alloc[0] >= 1)");
    plan.tasks.push_back({id, scheduled.alloc, scheduled.start, scheduled.duration, scheduled.pack,
                          plan.bandwidth.empty() ? sched::FlowDemand{} : sched::scheduled_demand(document, entry)});
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
  if (!plan.gates.empty() && rest.tasks.size() != plan.tasks.size()) {
    throw UsageError("a closed-loop replay (--replay closed) cannot be resumed: its releases depend on completions "
                     "of the run that was stopped; run it again whole");
  }
  for (auto& gate : rest.gates) gate.planned_opening -= earliest;  // shifted like the releases they move
  if (plan.online) {
    std::vector<std::size_t> keep;
    for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
      if (done.count(plan.tasks[j].id) == 0) keep.push_back(j);
    }
    for (auto& task : rest.tasks) task.release = std::max(0.0, task.release - earliest);
    rest.online = std::make_shared<const online::OnlineWorkload>(
        online::remaining_jobs(*plan.online, keep, earliest));
  }
  return rest;
}

}  // namespace cosched::sim
