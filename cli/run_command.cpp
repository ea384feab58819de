// `cosched run BATCH`: a user's own batch, profiled once (the profile cache), planned, predicted and run once,
// journaled and resumable (docs/launcher.md, "Your own batch: cosched run"). A composition of library calls:
// profiler::profile_through_cache -> profiler::batch_instance -> sched::plan -> launcher::launch.
#include <fmt/core.h>
#include <unistd.h>

#include <memory>
#include <optional>
#include <string>

#include "launch_options.hpp"
#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/launcher/cluster/slurm_launch.hpp"
#include "cosched/launcher/run_folder.hpp"
#include "cosched/launcher/run_report.hpp"
#include "cosched/platform/command_placement.hpp"
#include "cosched/profiler/cached_profile.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/default_planner.hpp"
#include "cosched/sim/gantt.hpp"

namespace {

namespace launcher = cosched::launcher;
namespace profiler = cosched::profiler;
namespace config = cosched::config;
namespace sim = cosched::sim;

struct RunFlags {
  std::string batch;
  std::string output;
  std::string algorithm{sim::kDefaultPlanner};
  std::string cache;
  std::string node;
  std::string platform;
  std::string placement = "preferred";
  unsigned reps = 2;
  std::optional<double> timeout_s;
  std::string memory_warm_up = "auto";
  bool dry_run = false;
  bool resume = false;
  bool force = false;
  bool reprofile = false;
  bool slurm = false;
};

void say(const std::string& text) {
  fmt::print("{}\n", text);
  std::fflush(stdout);
}

// The node the batch is planned for: --platform, the run's own on resume, else this machine (the emulated tier
// where there is no fast one). Inside an allocation (--slurm), the cores Slurm gives every node.
config::PlatformConfig run_platform(const RunFlags& flags, const launcher::RunFolder& folder) {
  if (flags.resume) return config::load_platform_config(folder.platform());
  config::PlatformConfig platform =
      flags.platform.empty() ? config::this_machine_platform() : config::load_platform_config(flags.platform);
  if (!flags.slurm) return platform;
  return launcher::slurm::allocation_platform(
      platform, !flags.platform.empty(),
      launcher::slurm::allocation_from_environment(launcher::slurm::process_environment()), stdout);
}

void launch_plan(const RunFlags& flags, const launcher::RunFolder& folder, const launcher::LaunchInputs& inputs,
                 const config::PlatformConfig& platform) {
  launcher::LaunchSettings settings;
  settings.journal = folder.journal();
  settings.resume = flags.resume;
  settings.force = flags.force;
  settings.tier = cosched::exec::make_tier_setup(platform.tier_backend, platform.emulation_ratio,
                                                 platform.chunk_bytes(), flags.placement);
  settings.clock.timeout_s = flags.timeout_s;
  settings.memory_warm_up = launcher::parse_memory_warm_up_mode(flags.memory_warm_up);
  settings.schedule_source = folder.schedule().string();
  settings.workload_source = flags.batch;
  launcher::RunStatusLine status(stdout, ::isatty(STDOUT_FILENO) != 0);
  settings.observer = &status;
  cosched::flush_standard_output();
  const launcher::LaunchSummary summary = launcher::launch(inputs.plan, inputs.workload, settings);
  status.finish();
  fmt::print("{}", launcher::format_run_comparison(summary));
  say(fmt::format("run folder: {} (journal: cosched report {})", folder.dir.string(), folder.journal().string()));
  if (summary.observed.interrupted) {
    throw cosched::RuntimeFailure(fmt::format("interrupted: continue with cosched run {} --resume{}", flags.batch,
                                              flags.output.empty() ? "" : " --output " + flags.output));
  }
  if (summary.observed.failed > 0) {
    throw cosched::RuntimeFailure(
        fmt::format("{} task(s) failed: their logs are in {}.logs/", summary.observed.failed, folder.journal().string()));
  }
}

// --slurm: the batch over the allocation's nodes, one step per node (docs/cluster.md).
void launch_on_allocation(const RunFlags& flags, const launcher::RunFolder& folder,
                          const cosched::sched::Instance* instance) {
  if (instance != nullptr) {
    const auto allocation = launcher::slurm::allocation_from_environment(launcher::slurm::process_environment());
    const auto plan = cosched::sched::plan_cluster(sim::find_algorithm(flags.algorithm), *instance,
                                                   allocation.nodes.size());
    cosched::sched::write_cluster_plan(folder.cluster_plan(), plan, folder.instance().string(),
                                       cosched::Overwrite::replace);
    fmt::print("{}", cosched::sched::format_cluster_plan(plan));
    if (flags.dry_run) return;
  }
  launcher::SlurmLaunchRequest request{folder.cluster_plan(), flags.resume, flags.force,
                                       {"--platform", std::filesystem::absolute(folder.platform()).string()}};
  if (flags.timeout_s) request.step_options.insert(request.step_options.end(), {"--timeout", fmt::format("{}", *flags.timeout_s)});
  (void)launcher::run_slurm_launch(request, stdout);
  say(fmt::format("run folder: {} (cosched report {})", folder.dir.string(), folder.cluster_plan().string()));
}

void run_batch(const RunFlags& flags) {
  // Everything that can be refused is refused before any work: the algorithm, the folder, the node, the batch and
  // every command's program.
  const cosched::sched::Algorithm& algorithm = sim::find_algorithm(flags.algorithm);
  const launcher::RunFolder folder =
      flags.output.empty() ? launcher::default_run_folder(flags.batch) : launcher::RunFolder{flags.output};
  launcher::check_run_folder(folder, flags.resume, flags.force, flags.slurm);
  const config::PlatformConfig platform = run_platform(flags, folder);
  config::Workload batch = cosched::exec::read_workload(flags.batch, platform);
  (void)profiler::distinct_commands(batch, true);  // the names its commands' profiles go by
  for (const auto& task : batch.tasks) (void)profiler::cached_task_of(task, flags.placement);
  if (flags.resume) {
    if (flags.slurm) return launch_on_allocation(flags, folder, nullptr);
    const launcher::LaunchInputs inputs = launcher::read_run_plan(folder);
    launcher::check_same_batch(batch, inputs.workload, folder);
    say(fmt::format("cosched run {} --resume: the plan of {}, its unfinished tasks", flags.batch, folder.dir.string()));
    return launch_plan(flags, folder, inputs, platform);
  }

  const cosched::exec::TierSetup tier = cosched::exec::make_tier_setup(
      platform.tier_backend, platform.emulation_ratio, platform.chunk_bytes(), flags.placement);
  say(fmt::format("cosched run {}: {} tasks on {} cores{}, tier backend {}{}; planned with {}", flags.batch,
                  batch.tasks.size(), platform.cores,
                  platform.fast_chunks > 0 ? fmt::format(" + {} fast chunks", platform.fast_chunks) : "",
                  tier.backend, tier.emulated() ? " (EMULATED fast tier)" : "", algorithm.name()));
  const profiler::ProfileCache cache(flags.cache.empty() ? profiler::ProfileCache::default_root()
                                                         : std::filesystem::path(flags.cache),
                                     profiler::this_node_fingerprint(tier.backend, tier.emulation_ratio));
  profiler::CachedProfileOptions options = profiler::CachedProfileOptions::for_run(platform, tier, flags.reps, stdout);
  if (!flags.node.empty()) options.node_file = flags.node;
  options.reprofile = flags.reprofile;
  const profiler::CachedProfile profile = profiler::profile_through_cache(batch, cache, options);
  say(fmt::format("profiles: {} task kind(s), {} from the cache, {} measured now ({}); node model {}",
                  profile.types.size(), profile.types.size() - profile.measured(), profile.measured(),
                  cache.node_folder().string(), profile.node_origin));
  const cosched::sched::Instance instance = profiler::batch_instance(profile, platform, tier.places_commands());
  for (const std::string& line : profiler::probed_traffic_lines(instance)) say("  " + line);
  if (flags.slurm) {
    launcher::write_run_plan(folder, platform, instance, nullptr);
    return launch_on_allocation(flags, folder, &instance);
  }
  const auto planned = cosched::sched::plan(algorithm, instance, cosched::sched::lower_bound(instance));
  launcher::write_run_plan(folder, platform, instance, &planned.schedule);
  const launcher::LaunchInputs inputs = launcher::read_run_plan(folder);
  fmt::print("{}", sim::format_prediction(inputs.plan));  // both makespans and the predicted run
  if (flags.dry_run) {
    say(fmt::format("dry run: the plan is in {}; nothing was launched (cosched run {} runs it, from the cached "
                    "profiles)",
                    folder.dir.string(), flags.batch));
    return;
  }
  launch_plan(flags, folder, inputs, platform);
}

const cosched::cli::CommandRegistration run_registration{"run", [](CLI::App& app) {
  auto* sub = app.add_subcommand("run", "Your own batch: profiled once (cached), planned, predicted and run, journaled");
  auto flags = std::make_shared<RunFlags>();
  sub->add_option("batch", flags->batch, "Workload TOML or JSON of kernels and commands (docs/formats.md)")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--output", flags->output, "The run's folder (default: ./cosched-run-<batch name>)");
  sub->add_option("--algorithm", flags->algorithm, "The planner (cosched plan --help lists them)")
      ->capture_default_str();
  sub->add_flag("--dry-run", flags->dry_run, "Stop after the plan: the prediction and the predicted run, nothing run");
  auto* resume = sub->add_flag("--resume", flags->resume,
                               "Continue the run in --output: only its unfinished tasks run, nothing is planned again");
  sub->add_flag("--force", flags->force, "Start over in an --output folder that holds a run")->excludes(resume);
  sub->add_option("--cache", flags->cache, "The profile cache (default: $XDG_CACHE_HOME/cosched, ~/.cache/cosched)");
  sub->add_flag("--reprofile", flags->reprofile, "Measure every task kind again, whatever the cache holds")
      ->excludes(resume);
  sub->add_option("--node", flags->node, "Node bandwidth model (cosched calibrate); default: the cache's, "
                                         "calibrated when missing or older than 30 days");
  sub->add_option("--platform", flags->platform, "Platform TOML; default: this machine (an emulated fast tier where "
                                                 "it has none)")
      ->check(CLI::ExistingFile)
      ->excludes(resume);
  sub->add_option("--placement", flags->placement, "How commands get their fast share (docs/launcher.md)")
      ->check(CLI::IsMember(cosched::platform::command_placement_names()))
      ->capture_default_str();
  sub->add_option("--reps", flags->reps, "Timed runs per profiled point")->check(CLI::Range(1U, 1000U))
      ->capture_default_str();
  sub->add_option("--timeout", flags->timeout_s, "Per-task timeout in seconds (SIGTERM, then SIGKILL)")
      ->check(cosched::app::finite_positive(cosched::kMaxSeconds));
  cosched::cli::add_memory_warm_up_option(*sub, flags->memory_warm_up);
  sub->add_flag("--slurm", flags->slurm,
                "Inside a Slurm allocation: planned over its nodes, one job step per node (docs/cluster.md)");
  sub->callback([flags] {
    if (flags->dry_run && flags->resume) throw cosched::UsageError("--dry-run plans a new run; --resume continues one");
    run_batch(*flags);
  });
}};

}  // namespace
