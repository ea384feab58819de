// `cosched run BATCH` (cosched/workflow/run_batch.hpp): the run folder, the node, the plan (batch_plan.hpp), the
// launch, the comparison and what it teaches.
#include "cosched/workflow/run_batch.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/launcher/launch_inputs.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/launcher/run_folder.hpp"
#include "cosched/launcher/run_report.hpp"
#include "cosched/platform/host_memory.hpp"
#include "cosched/profiler/launch_replanner.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/profile_cache.hpp"
#include "cosched/profiler/task_kinds.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/gantt.hpp"
#include "cosched/workflow/node_launch.hpp"
#include "cosched/workflow/slurm_launch.hpp"
#include "batch_plan.hpp"

namespace cosched::workflow {

namespace {

// The node the batch is planned for: the platform file given, the run's own on resume, else this machine (the
// emulated tier where there is no fast one). Inside an allocation (slurm), the cores Slurm gives every node.
config::PlatformConfig run_platform(const RunBatchOptions& run, const launcher::RunFolder& folder,
                                    Reporter& reporter) {
  if (run.resume) return config::load_platform_config(folder.platform());
  config::PlatformConfig platform =
      run.platform.empty() ? config::this_machine_platform() : config::load_platform_config(run.platform);
  if (!run.slurm) return platform;
  return launcher::slurm::allocation_platform(
      platform, !run.platform.empty(),
      launcher::slurm::allocation_from_environment(launcher::slurm::process_environment()), reporter);
}

// Launches the plan (its journal states `interval`, the predicted one: `cosched report` compares it with what ran);
// returns what ran (after saying how it compares with the prediction), or throws as require_completed does when the
// run was interrupted or a task failed — after `learn` heard what did run. `guessed`: the tasks the plan's instance
// says it guessed at (profiler::guessed_tasks), marked so in the comparison unless a re-plan predicted them anew.
template <typename Learn>
void launch_plan(const RunBatchOptions& run, const launcher::RunFolder& folder, const launcher::LaunchInputs& inputs,
                 const RunNode& node, const std::optional<launcher::PredictedInterval>& interval,
                 sim::Replanner* replanner, const std::set<std::string>& guessed, Reporter& reporter, Learn&& learn) {
  LaunchOptions options;
  options.journal = folder.journal().string();
  options.resume = run.resume;
  options.force = run.force;
  options.placement = run.placement;
  options.timeout_s = run.timeout_s;
  options.memory_warm_up = run.memory_warm_up;
  launcher::LaunchSettings settings = launch_settings(options, node, folder.journal());
  settings.schedule_source = folder.schedule().string();
  settings.workload_source = run.batch;
  settings.predicted_interval = interval;
  settings.replanner = replanner;
  launcher::LaunchSummary summary = launch_on_node(inputs.plan, inputs.workload, settings, &reporter);
  // The plan's guesses (a re-plan says of its own).
  for (launcher::TaskDeviation& task : summary.tasks) {
    if (!task.replanned && guessed.count(task.id) > 0) task.guessed = true;
  }
  reporter.result({"run-comparison", launcher::format_run_comparison(summary), launcher::run_comparison_json(summary)});
  learn(summary);
  reporter.note(fmt::format("run folder: {} (journal: cosched report {})", folder.dir.string(),
                            folder.journal().string()));
  require_completed(summary,
                    {fmt::format("continue with cosched run {} --resume{}", run.batch,
                                 run.output.empty() ? "" : " --output " + run.output),
                     fmt::format(": their logs are in {}.logs/", folder.journal().string())});
}

// slurm: the batch over the allocation's nodes, one step per node (docs/cluster.md).
void launch_on_allocation(const RunBatchOptions& run, const launcher::RunFolder& folder,
                          const sched::Instance* instance, Reporter& reporter) {
  if (instance != nullptr) {
    const auto allocation = launcher::slurm::allocation_from_environment(launcher::slurm::process_environment());
    const auto plan = sched::plan_cluster(sim::find_algorithm(run.algorithm), *instance, allocation.nodes.size());
    sched::write_cluster_plan(folder.cluster_plan(), plan, folder.instance().string(), Overwrite::replace);
    reporter.result({"cluster-plan", sched::format_cluster_plan(plan), nullptr});
    if (run.dry_run) return;
  }
  SlurmLaunchRequest request{folder.cluster_plan(), run.resume, run.force,
                             {"--platform", std::filesystem::absolute(folder.platform()).string()}};
  if (run.timeout_s) {
    request.step_options.insert(request.step_options.end(), {"--timeout", fmt::format("{}", *run.timeout_s)});
  }
  (void)run_slurm_launch(request, reporter);
  reporter.note(fmt::format("run folder: {} (cosched report {})", folder.dir.string(), folder.cluster_plan().string()));
}

profiler::ProfileCache run_cache(const RunBatchOptions& run, const RunNode& node) {
  return profiler::ProfileCache(
      run.cache.empty() ? profiler::ProfileCache::default_root() : std::filesystem::path(run.cache),
      profiler::this_node_fingerprint(node.tier.backend, node.tier.emulation_ratio));
}

// The batch's checks that read files beyond the batch, before the run writes anything (issue 41): its programs and
// footprints on this node, and the node model given (a missing one used to be found once the cache folder and
// its lock were made).
void check_before_work(const RunBatchOptions& run, const config::Workload& batch) {
  exec::check_batch_before_work(batch, platform::total_memory_bytes());
  if (!run.node.empty()) (void)config::load_node_model(run.node);
}

}  // namespace

void run_batch(const RunBatchOptions& run, Reporter& reporter) {
  // Everything that can be refused is refused before any work: the algorithm, the folder, the node, the batch and
  // every command's program.
  const sched::Algorithm& algorithm = sim::find_algorithm(run.algorithm);
  const launcher::RunFolder folder =
      run.output.empty() ? launcher::default_run_folder(run.batch, run.resume, run.force)
                         : launcher::RunFolder{run.output};
  launcher::check_run_folder(folder, run.resume, run.force, run.slurm);
  const RunNode node = run_node(run_platform(run, folder, reporter), run.placement);
  const config::PlatformConfig& platform = node.platform;
  config::Workload batch = exec::read_workload(run.batch, platform);
  // Every command's program is found, and each command named by its kind (the names its knowledge goes by).
  (void)profiler::task_kinds(batch, run.placement);
  check_before_work(run, batch);
  // From here on the run writes (the knowledge store, the plan, the journal): the folder is this run's until it ends.
  const launcher::RunFolderClaim claim(folder, run.resume, run.force, run.slurm);
  if (run.resume) {
    if (run.slurm) return launch_on_allocation(run, folder, nullptr, reporter);
    const launcher::LaunchInputs inputs = launcher::read_run_plan(folder);
    launcher::check_same_batch(batch, inputs.workload, folder);
    std::error_code error;
    if (std::filesystem::is_regular_file(folder.journal(), error)) {
      const launcher::JournalReport journal = launcher::summarize_journal(folder.journal());
      if (journal.finished && journal.tasks_planned > 0 && journal.tasks_completed == journal.tasks_planned) {
        reporter.note(fmt::format("cosched run {} --resume: every task of the run in {} ended well, nothing is left "
                                  "to run (cosched report {} compares it with its prediction)",
                                  run.batch, folder.dir.string(), folder.journal().string()));
        return;
      }
    }
    reporter.note(fmt::format("cosched run {} --resume: the plan of {}, its unfinished tasks", run.batch,
                              folder.dir.string()));
    // The plan's guesses, as the run that made it marked them: its instance, read back.
    const std::set<std::string> guessed =
        profiler::guessed_tasks(sched::load_instance(folder.instance()), folder.instance().string());
    const profiler::ProfileCache cache = run_cache(run, node);
    return launch_plan(run, folder, inputs, node, std::nullopt, nullptr, guessed, reporter,
                       [&](const launcher::LaunchSummary& summary) {
      detail::learn_from_launch(summary, batch, std::nullopt, {}, cache, run.placement, reporter);
    });
  }

  reporter.note(fmt::format("cosched run {}: {} tasks on {}; planned with {}", run.batch, batch.tasks.size(),
                            node.description(), algorithm.name()));
  const profiler::ProfileCache cache = run_cache(run, node);
  const detail::BatchPlan plan = detail::plan_batch(run, batch, cache, node, algorithm, reporter);
  if (run.slurm) {
    launcher::write_run_plan(folder, platform, plan.instance, nullptr);
    return launch_on_allocation(run, folder, &plan.instance, reporter);
  }
  launcher::write_run_plan(folder, platform, plan.instance, &plan.schedule);
  const launcher::LaunchInputs inputs = launcher::run_plan_inputs(folder, plan.instance, plan.schedule);
  const detail::PredictionInterval predicted = detail::report_prediction(plan, inputs, cache, reporter);
  if (run.dry_run) {
    reporter.note(fmt::format("dry run: the plan is in {}; nothing was launched (cosched run {} plans and runs it)",
                              folder.dir.string(), run.batch));
    return;
  }
  // A plan that guessed some tasks' times is re-planned as their runs give their kinds' pending tasks a time (a
  // resumed run is not: it runs what was left of its plan).
  std::optional<profiler::LaunchReplanner> replanner;
  if (run.replan && !plan.guessed.empty()) {
    replanner.emplace(batch, inputs.plan, plan.guessed, plan.known, plan.learning, plan.bandwidth, algorithm,
                      &reporter);
  }
  launch_plan(run, folder, inputs, node, launcher::PredictedInterval{predicted.low_s, predicted.high_s},
              replanner ? &*replanner : nullptr, plan.guessed,
              reporter, [&](const launcher::LaunchSummary& summary) {
    detail::learn_from_launch(summary, batch, predicted, plan.profiling, cache, run.placement, reporter);
  });
}

}  // namespace cosched::workflow
