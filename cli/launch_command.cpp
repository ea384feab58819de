// `cosched launch`: run a list or pack schedule on this node's cores and memory tiers, journal it, and compare
// the observed makespan with the predicted ones — the paper model's and, when the instance has a bandwidth model,
// the contention-aware one (docs/launcher.md).
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>

#include "command_registry.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/launcher/policies.hpp"
#include "cosched/sched/io.hpp"
#include "run_main.hpp"
#include "workload_reading.hpp"

namespace {

namespace launcher = cosched::launcher;
namespace config = cosched::config;

struct LaunchFlags {
  std::string schedule;
  std::string workload;
  std::string platform;
  std::string instance;
  std::string journal;
  std::string resume;
  std::string policy = "auto";
  std::string tier_backend;
  std::string log_dir;
  unsigned chunks = config::kDefaultFastChunks;
  std::optional<double> timeout_s;
  double kill_grace_s = 2.0;
  bool fail_fast = false;
  bool force = false;
};

launcher::LaunchPlan read_plan(const LaunchFlags& flags, const config::PlatformConfig& node) {
  if (!flags.instance.empty()) {
    // With the instance, the schedule is checked against the model (durations, capacities over time).
    const auto instance = cosched::sched::load_instance(flags.instance);
    const auto schedule = cosched::sched::match_schedule(cosched::sched::load_schedule_document(flags.schedule),
                                                         instance, flags.schedule);
    const auto violations = cosched::sched::find_violations(instance, schedule);
    if (!violations.empty()) throw cosched::InputError(flags.schedule, "invalid schedule: " + violations.front());
    return launcher::plan_from_schedule(instance, schedule);
  }
  // The node's resources, cores first; the schedule says which of them it uses (load_schedule_plan).
  std::vector<std::string> names{"cores"};
  std::vector<int> capacities{static_cast<int>(node.cores)};
  if (node.fast_chunks > 0) {
    names.emplace_back("fast_chunks");
    capacities.push_back(static_cast<int>(node.fast_chunks));
  }
  return launcher::load_schedule_plan(flags.schedule, names, capacities);
}

// Which predictions this launch will show: the paper model always, the contention-aware one when the plan has a
// bandwidth model (from --instance, or from the Instance JSON given as --workload).
std::string prediction_models_line(const launcher::LaunchPlan& plan, bool have_instance) {
  if (!plan.bandwidth.empty()) {
    std::vector<std::string> pools;
    for (const auto& pool : plan.bandwidth.pools) pools.push_back(pool.name);
    const auto with_traffic = std::count_if(plan.tasks.begin(), plan.tasks.end(), [](const launcher::PlannedTask& t) {
      return std::any_of(t.flow.bytes_per_s.begin(), t.flow.bytes_per_s.end(), [](double d) { return d > 0.0; });
    });
    return fmt::format("predictions: paper model and contention-aware (fluid model over the memory pools {}; {} of "
                       "{} tasks with known traffic)",
                       fmt::join(pools, ", "), with_traffic, plan.tasks.size());
  }
  const char* build_hint = "build it with `cosched instance --node FILE`; make FILE with `cosched calibrate`";
  if (have_instance) {
    return fmt::format("predictions: paper model; contention-aware prediction unavailable: the instance has no "
                       "bandwidth model ({})",
                       build_hint);
  }
  return fmt::format("predictions: paper model; contention-aware prediction unavailable: no instance given (pass "
                     "--instance, or the Instance JSON as --workload; for its bandwidth model {})",
                     build_hint);
}

void run_launch(const LaunchFlags& flags) {
  if (!flags.journal.empty() && !flags.resume.empty() && flags.journal != flags.resume) {
    throw cosched::UsageError("--journal and --resume name different files: --resume continues its own journal");
  }
  std::optional<config::PlatformConfig> platform_file;
  if (!flags.platform.empty()) platform_file = config::load_platform_config(flags.platform);
  config::PlatformConfig node =
      platform_file ? *platform_file
                    : config::this_machine_platform(flags.tier_backend.empty() ? "auto" : flags.tier_backend,
                                                    config::kDefaultEmulationRatio, flags.chunks);
  if (!flags.tier_backend.empty()) node.tier_backend = flags.tier_backend;
  launcher::LaunchPlan plan = read_plan(flags, node);
  const cosched::cli::WorkloadFile workload_file = cosched::cli::read_workload_file(flags.workload, platform_file);
  const config::Workload& workload = workload_file.workload;
  // With --instance the plan already carries its bandwidth model (plan_from_schedule).
  if (flags.instance.empty() && workload_file.instance) {
    launcher::attach_bandwidth(plan, *workload_file.instance, flags.workload);
  }

  launcher::LaunchSettings settings;
  settings.resume = !flags.resume.empty();
  settings.force = flags.force;
  settings.journal = settings.resume ? std::filesystem::path(flags.resume)
                     : flags.journal.empty() ? std::filesystem::path(flags.schedule).replace_extension(".journal.jsonl")
                                             : std::filesystem::path(flags.journal);
  settings.policy = flags.policy;
  settings.engine.fail_fast = flags.fail_fast;
  settings.clock.timeout_s = flags.timeout_s;
  settings.clock.kill_grace_s = flags.kill_grace_s;
  settings.tier = launcher::make_tier_setup(node.tier_backend, node.emulation_ratio, node.chunk_bytes());
  settings.log_dir = flags.log_dir;
  settings.schedule_source = flags.schedule;
  settings.workload_source = flags.workload;

  fmt::print("launching {} tasks of {} ({} policy) on {} cores{}, tier backend {}{}; journal {}\n", plan.tasks.size(),
             plan.algorithm, flags.policy, node.cores,
             node.fast_chunks > 0 ? fmt::format(" + {} fast chunks", node.fast_chunks) : std::string(),
             settings.tier.backend, settings.tier.emulated() ? " (EMULATED fast tier)" : "",
             settings.journal.string());
  fmt::print("{}\n", prediction_models_line(plan, !flags.instance.empty() || workload_file.instance.has_value()));
  // Before any task runs: output that cannot be written (stdout on a full disk) fails the launch, not after it.
  cosched::flush_standard_output();
  const launcher::LaunchSummary summary = launcher::launch(plan, workload, settings);
  fmt::print("{}", launcher::format_summary(summary));
  if (summary.observed.interrupted) throw cosched::RuntimeFailure("interrupted: resume with --resume " +
                                                                  settings.journal.string());
  if (summary.observed.failed > 0) {
    throw cosched::RuntimeFailure(fmt::format("{} task(s) failed (see {})", summary.observed.failed,
                                              settings.journal.string()));
  }
}

const cosched::cli::CommandRegistration registration{"launch", [](CLI::App& app) {
  auto* sub = app.add_subcommand("launch", "Run a schedule on this node's cores and memory tiers, journaled");
  auto flags = std::make_shared<LaunchFlags>();
  sub->add_option("schedule", flags->schedule, "Schedule JSON (cosched plan)")->required();
  sub->add_option("--workload", flags->workload,
                  "What each task id runs: workload TOML, Instance JSON of `cosched instance`, or command JSON")
      ->required();
  sub->add_option("--platform", flags->platform, "Platform TOML (cores, fast chunks, tier backend); "
                                                 "default: this machine as detected");
  sub->add_option("--instance", flags->instance, "Instance JSON the schedule came from (checks the schedule; its bandwidth model, "
                                                 "if any, gives the contention-aware prediction)");
  sub->add_option("--journal", flags->journal, "Journal to write (default: <schedule>.journal.jsonl)");
  auto* resume =
      sub->add_option("--resume", flags->resume, "Continue the run this journal records: only unfinished tasks run");
  sub->add_option("--policy", flags->policy, "auto | list | pack")->capture_default_str();
  sub->add_option("--tier-backend", flags->tier_backend, "Override the platform's tier backend");
  sub->add_option("--chunks", flags->chunks, "Fast chunks without --platform")
      ->check(CLI::Range(1U, config::kMaxFastChunks))
      ->capture_default_str();
  sub->add_option("--timeout", flags->timeout_s, "Per-task timeout in seconds (SIGTERM, then SIGKILL)")
      ->check(cosched::cli::finite_positive(cosched::kMaxSeconds));
  sub->add_option("--kill-grace", flags->kill_grace_s, "Seconds between SIGTERM and SIGKILL")
      ->check(cosched::cli::finite_range(0.0, cosched::kMaxSeconds))
      ->capture_default_str();
  sub->add_option("--log-dir", flags->log_dir, "Task stdout/stderr (default: <journal>.logs/)");
  sub->add_flag("--fail-fast", flags->fail_fast, "Stop the batch at the first failed task");
  sub->add_flag("--force", flags->force, "Replace an existing journal (a new run; --resume continues one instead)")
      ->excludes(resume);
  sub->callback([flags] { run_launch(*flags); });
}};

}  // namespace
