#pragma once
// The one way from what a user gives `cosched launch` to what the launcher runs: a schedule (Schedule JSON),
// optionally the Instance it came from, and a workload (TOML, workload JSON or Instance JSON) become the LaunchPlan
// and what each of its tasks runs. Three routes, chosen here and nowhere else:
//   --instance given      the schedule is matched and validated against the instance (durations, capacities over
//                         time); the plan carries the instance's bandwidth model (sim::plan_from_schedule);
//   workload is Instance  the schedule is read for the node's resources; the instance's bandwidth model and each
//                         task's demand are attached by task id (sim::attach_bandwidth);
//   otherwise             the schedule read for the node's resources alone (sim::load_schedule_plan), with the
//                         bandwidth model and traffic it carries when it was planned from an instance with one;
//                         without them, the paper model's prediction only.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/sim/plan.hpp"

namespace cosched::launcher {

struct LaunchSources {
  std::filesystem::path schedule;  // Schedule JSON
  std::filesystem::path workload;  // what each task id runs
  std::filesystem::path instance;  // the Instance JSON the schedule came from; empty: none given
};

struct LaunchInputs {
  sim::LaunchPlan plan;
  config::Workload workload;
  bool instance_given = false;  // an instance came with the schedule (--instance, or the workload is one)
};

// The node's resource types and capacities, cores first, then its fast chunks when it has a fast tier.
[[nodiscard]] std::vector<sched::Resource> node_resources(const config::PlatformConfig& node);

// Reads and checks the three inputs for `node` (`platform_file`: the platform TOML the user gave, which sizes
// footprints given as a share of the fast tier; nullopt: this machine as detected). Throws InputError naming the
// file and task for a schedule that does not fit the node or the instance, or a workload that does not say what a
// task runs.
[[nodiscard]] LaunchInputs read_launch_inputs(const LaunchSources& sources, const config::PlatformConfig& node,
                                              const std::optional<config::PlatformConfig>& platform_file);

// Which predictions a launch of `plan` will show, in one line: the paper model always, the contention-aware one
// when the plan carries a bandwidth model (from the instance, or carried by the schedule) — and, when it does
// not, how to get one.
[[nodiscard]] std::string describe_predictions(const sim::LaunchPlan& plan, bool instance_given);

}  // namespace cosched::launcher
