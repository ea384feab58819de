#include "cosched/launcher/launch.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "cosched/common/stats.hpp"
#include "cosched/common/error.hpp"
#include "cosched/launcher/journal.hpp"
#include "cosched/launcher/journal_recorder.hpp"
#include "cosched/launcher/policies.hpp"
#include "cosched/launcher/simulated_clock.hpp"
#include "cosched/platform/topology.hpp"

namespace cosched::launcher {

using nlohmann::json;

namespace {

std::size_t chunk_resource(const LaunchPlan& plan) {
  for (std::size_t i = 0; i < plan.resource_names.size(); ++i) {
    if (plan.resource_names[i] == "fast_chunks" || plan.resource_names[i] == "chunks") return i;
  }
  return SIZE_MAX;
}

// Tasks whose last "end" in the journal says ok, and the task ids of its first header's plan.
struct JournalState {
  std::vector<std::string> completed;
  std::set<std::string> planned_ids;
  std::size_t segments = 0;
};

JournalState read_state(const std::filesystem::path& path) {
  const JournalContents contents = read_journal(path);
  JournalState state;
  std::map<std::string, std::string> last_status;
  for (const auto& event : contents.events) {
    const std::string name = event["event"].get<std::string>();
    if (name == "batch_start") {
      if (state.segments++ == 0 && event.contains("plan")) {
        for (const auto& task : event["plan"]) state.planned_ids.insert(task.at("task").get<std::string>());
      }
    } else if (name == "end") {
      last_status[event["task"].get<std::string>()] = event.value("status", std::string("failed"));
    }
  }
  for (const auto& [id, status] : last_status) {
    if (status == "ok") state.completed.push_back(id);
  }
  return state;
}

json plan_json(const LaunchPlan& plan, const EngineResult& predicted) {
  json tasks = json::array();
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    const auto& task = plan.tasks[j];
    json entry = {{"task", task.id},
                  {"alloc", task.demand},
                  {"planned_start", task.planned_start},
                  {"predicted_duration", task.predicted_duration},
                  {"predicted_start", predicted.runs[j].launch.start}};
    if (task.pack >= 0) entry["pack"] = task.pack;
    tasks.push_back(std::move(entry));
  }
  return tasks;
}

json resources_json(const LaunchPlan& plan) {
  json resources = json::array();
  for (std::size_t i = 0; i < plan.capacities.size(); ++i) {
    resources.push_back({{"name", plan.resource_names[i]}, {"capacity", plan.capacities[i]}});
  }
  return resources;
}

std::string batch_status(const EngineResult& result) {
  if (result.interrupted) return "interrupted";
  if (result.stopped_by_failure) return "stopped";
  return result.failed > 0 ? "failed" : "ok";
}

}  // namespace

std::unique_ptr<NodeResources> make_node_pool(const LaunchPlan& plan, const TierSetup& tier) {
  auto cores = std::make_shared<platform::CoreAllocator>(platform::Topology::this_system());
  std::shared_ptr<platform::FastTierBudget> budget;
  const std::size_t chunks = chunk_resource(plan);
  if (chunks != SIZE_MAX && plan.capacities[chunks] > 0) {
    const auto count = static_cast<std::size_t>(plan.capacities[chunks]);
    if (!(tier.chunk_bytes >= 1.0)) throw UsageError("the plan schedules fast chunks but their size is unknown");
    budget = std::make_shared<platform::FastTierBudget>(
        static_cast<std::size_t>(std::floor(tier.chunk_bytes * static_cast<double>(count))), count);
  }
  return std::make_unique<NodeResources>(plan.resource_names, plan.capacities, std::move(cores), std::move(budget));
}

EngineResult predict(const LaunchPlan& plan, std::string_view policy_name) {
  auto policy = make_policy(policy_name, plan);
  auto pool = make_abstract_pool(plan.resource_names, plan.capacities);
  SimulatedClock clock(plan);
  return run_engine(plan, *policy, clock, *pool);
}

LaunchSummary launch(const LaunchPlan& full_plan, const config::Workload& workload,
                     const LaunchSettings& settings) {
  for (const auto& task : full_plan.tasks) (void)workload.find(task.id);  // every id must have a command
  const bool journal_has_events = std::filesystem::exists(settings.journal) &&
                                  std::filesystem::file_size(settings.journal) > 0;
  LaunchSummary summary;
  if (settings.resume) {
    if (!journal_has_events) throw UsageError(fmt::format("--resume {}: no such journal", settings.journal.string()));
    JournalState state = read_state(settings.journal);
    for (const auto& task : full_plan.tasks) {
      if (!state.planned_ids.empty() && state.planned_ids.count(task.id) == 0) {
        throw UsageError(fmt::format("{} is the journal of another schedule: it never planned task \"{}\"",
                                     settings.journal.string(), task.id));
      }
    }
    summary.already_completed = std::move(state.completed);
  } else if (journal_has_events) {
    throw UsageError(fmt::format("journal {} already has a run: pass --resume {} to continue it, or another --journal",
                                 settings.journal.string(), settings.journal.string()));
  }
  summary.plan = remaining_plan(full_plan, summary.already_completed);
  const LaunchPlan& plan = summary.plan;
  summary.lower_bound = plan.lower_bound;

  const EngineResult predicted = predict(plan, settings.policy);
  summary.predicted_makespan = predicted.observed_makespan;
  std::vector<double> predicted_start;
  for (const auto& run : predicted.runs) predicted_start.push_back(run.launch.start);

  auto pool = make_node_pool(plan, settings.tier);
  auto policy = make_policy(settings.policy, plan);
  // stream_bench is looked up only when the batch has STREAM tasks: a batch of commands does not need it.
  const bool has_stream_tasks = std::any_of(plan.tasks.begin(), plan.tasks.end(), [&](const PlannedTask& task) {
    return workload.find(task.id).is_stream();
  });
  const std::filesystem::path stream_bench = !settings.stream_bench.empty() ? settings.stream_bench
                                             : has_stream_tasks             ? default_stream_bench_path()
                                                                            : std::filesystem::path();
  std::filesystem::path log_dir = settings.log_dir;
  if (log_dir.empty()) log_dir = settings.journal.string() + ".logs";
  std::filesystem::create_directories(log_dir);

  JournalWriter journal(settings.journal);
  json header = {{"event", "batch_start"},
                 {"time_utc", utc_now()},
                 {"host", host_name()},
                 {"clock", "wall"},
                 {"policy", policy->name()},
                 {"algorithm", plan.algorithm},
                 {"schedule", settings.schedule_source},
                 {"workload", settings.workload_source},
                 {"label", settings.label},
                 {"tier_backend", settings.tier.backend},
                 {"emulated", settings.tier.emulated()},
                 {"chunk_bytes", settings.tier.chunk_bytes},
                 {"resources", resources_json(plan)},
                 {"lower_bound", plan.lower_bound},
                 {"planned_makespan", plan.predicted_makespan()},
                 {"predicted_makespan", summary.predicted_makespan},
                 {"fail_fast", settings.engine.fail_fast},
                 {"timeout_s", settings.clock.timeout_s ? json(*settings.clock.timeout_s) : json(nullptr)},
                 {"resumed", settings.resume},
                 {"already_completed", summary.already_completed},
                 {"journal_repaired_bytes", journal.repaired_bytes()},
                 {"plan", plan_json(plan, predicted)}};
  if (settings.tier.emulated()) header["emulation_ratio"] = settings.tier.emulation_ratio;
  journal.append(header);

  const TierSetup tier = settings.tier;
  WallClock clock(
      [&](std::size_t task, const Grant& grant) {
        return build_task_launch(workload.find(plan.tasks[task].id), grant, tier, stream_bench, log_dir);
      },
      settings.clock);
  JournalRecorder recorder(journal, plan, predicted_start);
  summary.observed = run_engine(plan, *policy, clock, *pool, &recorder, settings.engine);
  summary.observed_makespan = summary.observed.observed_makespan;

  journal.append({{"event", "batch_end"},
                  {"time_utc", utc_now()},
                  {"status", batch_status(summary.observed)},
                  {"observed_makespan", summary.observed_makespan},
                  {"predicted_makespan", summary.predicted_makespan},
                  {"lower_bound", plan.lower_bound},
                  {"ratio", summary.ratio()},
                  {"tasks_completed", summary.observed.completed},
                  {"tasks_failed", summary.observed.failed},
                  {"tasks_killed", summary.observed.killed},
                  {"tasks_not_started", summary.observed.not_started},
                  {"overcommit_refusals", summary.observed.overcommit_refusals.size()}});

  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    const TaskRun& run = summary.observed.runs[j];
    if (run.state != TaskState::done) continue;
    const TaskRun& sim = predicted.runs[j];
    summary.tasks.push_back({plan.tasks[j].id, sim.launch.start, sim.completion.end, run.launch.start,
                             run.completion.end, run.launch.overhead_s, run.completion.status});
  }
  return summary;
}

std::string format_summary(const LaunchSummary& summary) {
  std::string text;
  if (!summary.already_completed.empty()) {
    text += fmt::format("resumed: {} tasks already completed in the journal were not run again\n",
                        summary.already_completed.size());
  }
  text += fmt::format("{:<28} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8}\n", "task", "pred start", "obs start",
                      "d start", "d end", "overhead", "status");
  std::vector<double> overheads;
  for (const auto& task : summary.tasks) {
    text += fmt::format("{:<28} {:>10.3f} {:>10.3f} {:>+10.3f} {:>+10.3f} {:>8.2f}ms {:>8}\n", task.id,
                        task.predicted_start, task.observed_start, task.observed_start - task.predicted_start,
                        task.observed_end - task.predicted_end, task.launch_overhead_s * 1e3, to_string(task.status));
    overheads.push_back(task.launch_overhead_s);
  }
  const auto& r = summary.observed;
  text += fmt::format("tasks: {} ok, {} failed, {} killed, {} not started{}{}\n", r.completed, r.failed, r.killed,
                      r.not_started, r.interrupted ? " (interrupted)" : "",
                      r.stopped_by_failure ? " (stopped by --fail-fast)" : "");
  if (!overheads.empty()) {
    text += fmt::format("launch overhead per task (fork/exec + binding + placement): median {:.3f} ms, max {:.3f} ms\n",
                        median(overheads) * 1e3, summarize(overheads).max * 1e3);
  }
  text += fmt::format("lower bound L_min(d)   {:.3f} s\n", summary.lower_bound);
  text += fmt::format("predicted makespan     {:.3f} s\n", summary.predicted_makespan);
  text += fmt::format("observed makespan      {:.3f} s\n", summary.observed_makespan);
  text += fmt::format("observed / predicted   {:.4f}\n", summary.ratio());
  return text;
}

}  // namespace cosched::launcher
