#include "cosched/launcher/launch_inputs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cosched/common/error.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sched/resource_kinds.hpp"
#include "cosched/sched/schedule_document.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::launcher {

std::vector<sched::Resource> node_resources(const config::PlatformConfig& node) {
  std::vector<sched::Resource> resources{{std::string(sched::kCoresResource), static_cast<int>(node.cores)}};
  if (node.fast_chunks > 0) {
    resources.push_back({std::string(sched::kFastChunksResource), static_cast<int>(node.fast_chunks)});
  }
  return resources;
}

namespace {

sim::LaunchPlan plan_with_instance(const LaunchSources& sources) {
  // With the instance, the schedule is checked against the model (durations, capacities over time).
  const std::string schedule_file = sources.schedule.string();
  const auto instance = sched::load_instance(sources.instance);
  const auto schedule =
      sched::match_schedule(sched::load_schedule_document(sources.schedule), instance, schedule_file);
  const auto violations = sched::find_violations(instance, schedule);
  if (!violations.empty()) throw InputError(schedule_file, "invalid schedule: " + violations.front());
  return sim::plan_from_schedule(instance, schedule);
}

sim::LaunchPlan plan_for_node(const LaunchSources& sources, const config::PlatformConfig& node) {
  // The node's resources, cores first; the schedule says which of them it uses (load_schedule_plan).
  std::vector<std::string> names;
  std::vector<int> capacities;
  for (const auto& resource : node_resources(node)) {
    names.push_back(resource.name);
    capacities.push_back(resource.capacity);
  }
  return sim::load_schedule_plan(sources.schedule, names, capacities);
}

}  // namespace

LaunchInputs read_launch_inputs(const LaunchSources& sources, const config::PlatformConfig& node,
                                const std::optional<config::PlatformConfig>& platform_file) {
  LaunchInputs inputs;
  const bool with_instance = !sources.instance.empty();
  inputs.plan = with_instance ? plan_with_instance(sources) : plan_for_node(sources, node);
  exec::WorkloadFile workload_file = exec::read_workload_file(sources.workload, platform_file);
  inputs.workload = std::move(workload_file.workload);
  // With --instance the plan already carries its bandwidth model (plan_from_schedule).
  if (!with_instance && workload_file.instance) {
    sim::attach_bandwidth(inputs.plan, *workload_file.instance, sources.workload.string());
  }
  inputs.instance_given = with_instance || workload_file.instance.has_value();
  return inputs;
}

std::string describe_predictions(const sim::LaunchPlan& plan, bool instance_given) {
  if (!plan.bandwidth.empty()) {
    std::vector<std::string> pools;
    for (const auto& pool : plan.bandwidth.pools) pools.push_back(pool.name);
    const auto with_traffic = std::count_if(plan.tasks.begin(), plan.tasks.end(), [](const sim::PlannedTask& t) {
      return std::any_of(t.flow.bytes_per_s.begin(), t.flow.bytes_per_s.end(), [](double d) { return d > 0.0; });
    });
    return fmt::format("predictions: paper model and contention-aware (fluid model over the memory pools {}; {} of "
                       "{} tasks with known traffic)",
                       fmt::join(pools, ", "), with_traffic, plan.tasks.size());
  }
  const char* build_hint = "build it with `cosched instance --node FILE`; make FILE with `cosched calibrate`";
  if (instance_given) {
    return fmt::format("predictions: paper model; contention-aware prediction unavailable: the instance has no "
                       "bandwidth model ({})",
                       build_hint);
  }
  return fmt::format("predictions: paper model; contention-aware prediction unavailable: the schedule carries no "
                     "bandwidth model and no instance was given (plan from an instance that has one, or pass "
                     "--instance; {})",
                     build_hint);
}

}  // namespace cosched::launcher
