#pragma once
// What the engine executes, simulated or for real (the launcher): a schedule turned into planned tasks (id, allocation vector, planned start,
// predicted duration, pack). The same LaunchPlan drives the simulated and contention clocks (the two
// predictions) and the wall clock (a real run), so predicted and observed schedules come out of the same engine
// and policy code. When the instance has a bandwidth model, the plan carries it and each task's demand on the
// memory pools: what the contention clock needs to predict co-running tasks slowing each other down.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cosched/sched/bandwidth.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sim {

// No release gate (ReleaseGate): the task is released at PlannedTask::release.
inline constexpr std::size_t kNoGate = SIZE_MAX;

// A release that waits for completions (a closed-loop replay, sim/replay.hpp: a user submits the next job once the
// results it waited for are back). A gate opens once every task in `tasks` has ended (with any status) and the gate
// it `follows`, if any, has opened: at the latest of those ends and of that gate's opening (a gate that waits for
// nothing opens at its planned opening). A task behind a gate (PlannedTask::gate) is released as much later (or
// earlier) than its release as the gate opened after (or before) its planned opening: the time between the work it
// waited for and its release is kept, and when the work ends as planned the release is exactly the planned one.
// Gates and tasks must not wait on each other in a cycle (run_engine checks).
struct ReleaseGate {
  std::size_t follows = kNoGate;    // another gate of LaunchPlan::gates, or kNoGate
  std::vector<std::size_t> tasks;   // indices into LaunchPlan::tasks
  double planned_opening = 0.0;     // when it opens if the work it waits for ends as planned (as logged)
};

struct PlannedTask {
  std::string id;
  std::vector<int> demand;         // amount of each resource type (cores, fast chunks, ...)
  double planned_start = 0.0;      // seconds from the batch start
  double predicted_duration = 0.0;
  int pack = -1;                   // pack number, -1 in list schedules
  // Its demand on each pool of LaunchPlan::bandwidth at this allocation, when alone (bytes/s) and its streaming
  // cores; empty bytes_per_s when unknown (the task then never contends).
  sched::FlowDemand flow = {};
  double release = 0.0;  // the engine shows the task to the policy from this time on (online jobs)
  std::size_t gate = kNoGate;  // or: released when this gate opens, shifted as it is (LaunchPlan::gates)
  [[nodiscard]] double planned_end() const noexcept { return planned_start + predicted_duration; }
};

struct LaunchPlan {
  std::string algorithm;
  std::string launch_rule;  // the schedule's (sched::Schedule::launch_rule): "greedy", or "" for its kind's own
  std::vector<std::string> resource_names;  // "cores", "fast_chunks", ...
  std::vector<int> capacities;              // P(i), one per resource name
  double lower_bound = 0.0;                 // L_min(d) of the instance the schedule came from (0: unknown)
  std::vector<PlannedTask> tasks;
  // The node's memory pools (the instance's model); empty: no contention-aware prediction.
  sched::BandwidthModel bandwidth;
  // An online workload (seed 000): task j is job j, released at its release time; an online policy picks its
  // allocation when it starts it, and it then takes its time there. Null for the plan of a schedule.
  std::shared_ptr<const online::OnlineWorkload> online;
  online::OnlineOptions online_options;
  // Releases that wait for completions (empty: every task at its release, an open-loop replay).
  std::vector<ReleaseGate> gates;

  [[nodiscard]] bool is_pack() const noexcept;
  [[nodiscard]] bool is_online() const noexcept { return online != nullptr; }
  // How long task j runs with `alloc`: an online job's time there, else the task's predicted duration.
  [[nodiscard]] double duration(std::size_t task, std::span<const int> alloc) const;  // every task carries a pack number
  [[nodiscard]] double predicted_makespan() const noexcept;
  [[nodiscard]] std::size_t dimensions() const noexcept { return capacities.size(); }
};

// A plan from a schedule of `instance` (ids, resource names and capacities from the instance; its bandwidth
// model and each task's demand at its allocation, instance.demand).
[[nodiscard]] LaunchPlan plan_from_schedule(const sched::Instance& instance, const sched::Schedule& schedule);

// Reads a Schedule JSON (sched::load_schedule_document, docs/formats.md) for a node whose resources are
// `resource_names` with `capacities` (cores first): the schedule's recorded resources — or, in older files, the
// length of its allocation vectors — pick the node resources it uses (a cores-only schedule runs on a node with a
// fast tier; sched::resolve_schedule_resources). On top of the document's checks, each amount must be within the
// node's capacity and each task needs >= 1 core. A schedule that carries its instance's bandwidth model gives the
// plan that model and each task's demand (sched::scheduled_demand). Throws InputError naming the file and task.
[[nodiscard]] LaunchPlan load_schedule_plan(const std::filesystem::path& path,
                                            std::vector<std::string> resource_names, std::vector<int> capacities);

// Gives a plan read from a Schedule file `instance`'s bandwidth model and each task's demand at its allocation,
// matching tasks by id. The plan's resources must be the instance's first ones, by name (a cores-only schedule on
// a cores + fast chunks instance: the missing amounts are 0). Throws InputError naming `source` (the instance)
// for a plan task the instance does not have, resources that do not match, or an allocation beyond the
// instance's capacities. An instance without a bandwidth model leaves the plan as it is, unchecked.
void attach_bandwidth(LaunchPlan& plan, const sched::Instance& instance, const std::string& source = "instance");

// The plan of an online workload: one task per job (its id, its release, its reference allocation as the demand
// and reference time as the predicted duration, until a policy chooses), the workload's resources, no schedule.
[[nodiscard]] LaunchPlan online_plan(std::shared_ptr<const online::OnlineWorkload> workload,
                                     const online::OnlineOptions& options);

// The tasks not in `done_ids`, with planned starts shifted so the earliest remaining one starts at 0 (a resumed
// batch does not wait for time that already passed in the killed run). Packs keep their numbers; the bandwidth
// model and the tasks' demands are kept. An online plan keeps the remaining jobs, their releases shifted the same
// way (online::remaining_jobs). A plan with release gates is kept whole (its gates shifted too); resuming it
// (some task done) throws UsageError: its releases depended on the stopped run.
[[nodiscard]] LaunchPlan remaining_plan(const LaunchPlan& plan, const std::vector<std::string>& done_ids);

}  // namespace cosched::sim
