// `cosched run BATCH` (cosched/workflow/run_batch.hpp): the cache, the plan, the launch and the comparison.
#include "cosched/workflow/run_batch.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/launcher/cluster/slurm_launch.hpp"
#include "cosched/launcher/launch_inputs.hpp"
#include "cosched/launcher/run_folder.hpp"
#include "cosched/launcher/run_report.hpp"
#include "cosched/profiler/cached_profile.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/gantt.hpp"

namespace cosched::workflow {

namespace {

// One line of progress, flushed: the run's children write to the same terminal.
void print_line(std::FILE* out, const std::string& text) {
  fmt::print(out, "{}\n", text);
  std::fflush(out);
}

// The node the batch is planned for: the platform file given, the run's own on resume, else this machine (the
// emulated tier where there is no fast one). Inside an allocation (slurm), the cores Slurm gives every node.
config::PlatformConfig run_platform(const RunBatchOptions& run, const launcher::RunFolder& folder) {
  if (run.resume) return config::load_platform_config(folder.platform());
  config::PlatformConfig platform =
      run.platform.empty() ? config::this_machine_platform() : config::load_platform_config(run.platform);
  if (!run.slurm) return platform;
  return launcher::slurm::allocation_platform(
      platform, !run.platform.empty(),
      launcher::slurm::allocation_from_environment(launcher::slurm::process_environment()), run.out);
}

void launch_plan(const RunBatchOptions& run, const launcher::RunFolder& folder, const launcher::LaunchInputs& inputs,
                 const config::PlatformConfig& platform) {
  launcher::LaunchSettings settings;
  settings.journal = folder.journal();
  settings.resume = run.resume;
  settings.force = run.force;
  settings.tier =
      exec::make_tier_setup(platform, run.placement);
  settings.clock.timeout_s = run.timeout_s;
  settings.memory_warm_up = launcher::parse_memory_warm_up_mode(run.memory_warm_up);
  settings.schedule_source = folder.schedule().string();
  settings.workload_source = run.batch;
  launcher::RunStatusLine status(run.out, ::isatty(::fileno(run.out)) != 0);
  settings.observer = &status;
  flush_standard_output();
  const launcher::LaunchSummary summary = launcher::launch(inputs.plan, inputs.workload, settings);
  status.finish();
  fmt::print(run.out, "{}", launcher::format_run_comparison(summary));
  print_line(run.out, fmt::format("run folder: {} (journal: cosched report {})", folder.dir.string(),
                                  folder.journal().string()));
  if (summary.observed.interrupted) {
    throw RuntimeFailure(fmt::format("interrupted: continue with cosched run {} --resume{}", run.batch,
                                     run.output.empty() ? "" : " --output " + run.output));
  }
  if (summary.observed.failed > 0) {
    throw RuntimeFailure(fmt::format("{} task(s) failed: their logs are in {}.logs/", summary.observed.failed,
                                     folder.journal().string()));
  }
}

// slurm: the batch over the allocation's nodes, one step per node (docs/cluster.md).
void launch_on_allocation(const RunBatchOptions& run, const launcher::RunFolder& folder,
                          const sched::Instance* instance) {
  if (instance != nullptr) {
    const auto allocation = launcher::slurm::allocation_from_environment(launcher::slurm::process_environment());
    const auto plan = sched::plan_cluster(sim::find_algorithm(run.algorithm), *instance, allocation.nodes.size());
    sched::write_cluster_plan(folder.cluster_plan(), plan, folder.instance().string(), Overwrite::replace);
    fmt::print(run.out, "{}", sched::format_cluster_plan(plan));
    if (run.dry_run) return;
  }
  launcher::SlurmLaunchRequest request{folder.cluster_plan(), run.resume, run.force,
                                       {"--platform", std::filesystem::absolute(folder.platform()).string()}};
  if (run.timeout_s) {
    request.step_options.insert(request.step_options.end(), {"--timeout", fmt::format("{}", *run.timeout_s)});
  }
  (void)launcher::run_slurm_launch(request, run.out);
  print_line(run.out,
             fmt::format("run folder: {} (cosched report {})", folder.dir.string(), folder.cluster_plan().string()));
}

}  // namespace

void run_batch(const RunBatchOptions& run) {
  // Everything that can be refused is refused before any work: the algorithm, the folder, the node, the batch and
  // every command's program.
  const sched::Algorithm& algorithm = sim::find_algorithm(run.algorithm);
  const launcher::RunFolder folder =
      run.output.empty() ? launcher::default_run_folder(run.batch) : launcher::RunFolder{run.output};
  launcher::check_run_folder(folder, run.resume, run.force, run.slurm);
  const config::PlatformConfig platform = run_platform(run, folder);
  config::Workload batch = exec::read_workload(run.batch, platform);
  (void)profiler::distinct_commands(batch, true);  // the names its commands' profiles go by
  for (const auto& task : batch.tasks) (void)profiler::cached_task_of(task, run.placement);
  if (run.resume) {
    if (run.slurm) return launch_on_allocation(run, folder, nullptr);
    const launcher::LaunchInputs inputs = launcher::read_run_plan(folder);
    launcher::check_same_batch(batch, inputs.workload, folder);
    print_line(run.out, fmt::format("cosched run {} --resume: the plan of {}, its unfinished tasks", run.batch,
                                    folder.dir.string()));
    return launch_plan(run, folder, inputs, platform);
  }

  const exec::TierSetup tier =
      exec::make_tier_setup(platform, run.placement);
  print_line(run.out,
             fmt::format("cosched run {}: {} tasks on {} cores{}, tier backend {}{}; planned with {}", run.batch,
                         batch.tasks.size(), platform.cores,
                         platform.fast_chunks > 0 ? fmt::format(" + {} fast chunks", platform.fast_chunks) : "",
                         tier.backend, tier.emulated() ? " (EMULATED fast tier)" : "", algorithm.name()));
  const profiler::ProfileCache cache(
      run.cache.empty() ? profiler::ProfileCache::default_root() : std::filesystem::path(run.cache),
      profiler::this_node_fingerprint(tier.backend, tier.emulation_ratio));
  profiler::CachedProfileOptions options = profiler::CachedProfileOptions::for_run(platform, tier, run.reps, run.out);
  if (!run.node.empty()) options.node_file = run.node;
  options.reprofile = run.reprofile;
  const profiler::CachedProfile profile = profiler::profile_through_cache(batch, cache, options);
  print_line(run.out, fmt::format("profiles: {} task kind(s), {} from the cache, {} measured now ({}); node model {}",
                                  profile.types.size(), profile.types.size() - profile.measured(), profile.measured(),
                                  cache.node_folder().string(), profile.node_origin));
  const sched::Instance instance = profiler::batch_instance(profile, platform, tier.places_commands());
  for (const std::string& line : profiler::probed_traffic_lines(instance)) print_line(run.out, "  " + line);
  if (run.slurm) {
    launcher::write_run_plan(folder, platform, instance, nullptr);
    return launch_on_allocation(run, folder, &instance);
  }
  const auto planned = sched::plan(algorithm, instance, sched::lower_bound(instance));
  launcher::write_run_plan(folder, platform, instance, &planned.schedule);
  const launcher::LaunchInputs inputs = launcher::read_run_plan(folder);
  fmt::print(run.out, "{}", sim::format_prediction(inputs.plan));  // both makespans and the predicted run
  if (run.dry_run) {
    print_line(run.out,
               fmt::format("dry run: the plan is in {}; nothing was launched (cosched run {} runs it, from the cached "
                           "profiles)",
                           folder.dir.string(), run.batch));
    return;
  }
  launch_plan(run, folder, inputs, platform);
}

}  // namespace cosched::workflow
