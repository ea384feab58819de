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
#include "cosched/sim/policies.hpp"
#include "cosched/sched/io.hpp"
#include "run_main.hpp"
#include "launch_options.hpp"
#include "cluster_launch.hpp"
#include "workload_reading.hpp"

namespace {

namespace launcher = cosched::launcher;
namespace sim = cosched::sim;
namespace config = cosched::config;

struct LaunchCommandFlags {
  std::string schedule;
  std::string workload;
  std::string instance;
  std::string policy = "auto";
  bool slurm = false;
  cosched::cli::LaunchFlags run;
};

sim::LaunchPlan read_plan(const LaunchCommandFlags& flags, const config::PlatformConfig& node) {
  if (!flags.instance.empty()) {
    // With the instance, the schedule is checked against the model (durations, capacities over time).
    const auto instance = cosched::sched::load_instance(flags.instance);
    const auto schedule = cosched::sched::match_schedule(cosched::sched::load_schedule_document(flags.schedule),
                                                         instance, flags.schedule);
    const auto violations = cosched::sched::find_violations(instance, schedule);
    if (!violations.empty()) throw cosched::InputError(flags.schedule, "invalid schedule: " + violations.front());
    return sim::plan_from_schedule(instance, schedule);
  }
  // The node's resources, cores first; the schedule says which of them it uses (load_schedule_plan).
  std::vector<std::string> names{"cores"};
  std::vector<int> capacities{static_cast<int>(node.cores)};
  if (node.fast_chunks > 0) {
    names.emplace_back("fast_chunks");
    capacities.push_back(static_cast<int>(node.fast_chunks));
  }
  return sim::load_schedule_plan(flags.schedule, names, capacities);
}

// Which predictions this launch will show: the paper model always, the contention-aware one when the plan has a
// bandwidth model (from --instance, or from the Instance JSON given as --workload).
std::string prediction_models_line(const sim::LaunchPlan& plan, bool have_instance) {
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
  if (have_instance) {
    return fmt::format("predictions: paper model; contention-aware prediction unavailable: the instance has no "
                       "bandwidth model ({})",
                       build_hint);
  }
  return fmt::format("predictions: paper model; contention-aware prediction unavailable: no instance given (pass "
                     "--instance, or the Instance JSON as --workload; for its bandwidth model {})",
                     build_hint);
}

// `cosched launch PLAN_DIR --slurm`: one step per plan node, each a launch of that node's schedule.
void run_slurm(const LaunchCommandFlags& flags) {
  if (!flags.workload.empty() || !flags.instance.empty()) {
    throw cosched::UsageError("--workload and --instance do not go with --slurm: the plan folder holds every node's "
                              "instance");
  }
  if (!flags.run.resume.empty()) {
    throw cosched::UsageError("with --slurm, --resume is a bare flag: it continues every node's journal in the plan "
                              "folder");
  }
  cosched::cli::SlurmLaunchRequest request{flags.schedule, flags.run.resume_given(), flags.run.force,
                                           cosched::cli::step_launch_options(flags.run)};
  if (flags.policy != "auto") request.step_options.insert(request.step_options.end(), {"--policy", flags.policy});
  (void)cosched::cli::run_slurm_launch(request);
}

void run_launch(const LaunchCommandFlags& flags) {
  if (flags.slurm) {
    run_slurm(flags);
    return;
  }
  if (flags.workload.empty()) throw cosched::UsageError("--workload is required (without --slurm)");
  const cosched::cli::LaunchNode launch_node = cosched::cli::launch_node(flags.run);
  const config::PlatformConfig& node = launch_node.node;
  sim::LaunchPlan plan = read_plan(flags, node);
  const cosched::cli::WorkloadFile workload_file =
      cosched::cli::read_workload_file(flags.workload, launch_node.platform_file);
  const config::Workload& workload = workload_file.workload;
  // With --instance the plan already carries its bandwidth model (plan_from_schedule).
  if (flags.instance.empty() && workload_file.instance) {
    sim::attach_bandwidth(plan, *workload_file.instance, flags.workload);
  }

  launcher::LaunchSettings settings = cosched::cli::launch_settings(
      flags.run, node, std::filesystem::path(flags.schedule).replace_extension(".journal.jsonl"));
  settings.policy = flags.policy;
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
  cosched::cli::report_launch(summary, settings);
}

const cosched::cli::CommandRegistration registration{"launch", [](CLI::App& app) {
  auto* sub = app.add_subcommand("launch", "Run a schedule on this node's cores and memory tiers, journaled");
  auto flags = std::make_shared<LaunchCommandFlags>();
  sub->add_option("schedule", flags->schedule,
                  "Schedule JSON (cosched plan); with --slurm, the plan folder of `cosched plan --nodes N`")
      ->required();
  sub->add_option("--workload", flags->workload,
                  "What each task id runs: workload TOML, Instance JSON of `cosched instance`, or command JSON "
                  "(required without --slurm)");
  sub->add_flag("--slurm", flags->slurm,
                "Inside a Slurm allocation: one job step per node of the plan folder, merged report "
                "(docs/cluster.md)");
  sub->add_option("--instance", flags->instance, "Instance JSON the schedule came from (checks the schedule; its bandwidth model, "
                                                 "if any, gives the contention-aware prediction)");
  sub->add_option("--policy", flags->policy, "auto | list | pack")->capture_default_str();
  cosched::cli::add_launch_flags(*sub, flags->run);
  sub->callback([flags] { run_launch(*flags); });
}};

}  // namespace
