// `cosched launch`: run a list or pack schedule on this node's cores and memory tiers, journal it, and compare
// the observed makespan with the predicted ones — the paper model's and, when the schedule (or the instance) carries
// a bandwidth model, the contention-aware one (docs/launcher.md).
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
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/launcher/launch_inputs.hpp"
#include "cosched/app/run_main.hpp"
#include "launch_options.hpp"
#include "cosched/launcher/cluster/slurm_launch.hpp"

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
  cosched::launcher::SlurmLaunchRequest request{flags.schedule, flags.run.resume_given(), flags.run.force,
                                           cosched::cli::step_launch_options(flags.run)};
  if (flags.policy != "auto") request.step_options.insert(request.step_options.end(), {"--policy", flags.policy});
  (void)cosched::launcher::run_slurm_launch(request, stdout);
}

void run_launch(const LaunchCommandFlags& flags) {
  if (flags.slurm) {
    run_slurm(flags);
    return;
  }
  if (flags.workload.empty()) throw cosched::UsageError("--workload is required (without --slurm)");
  const cosched::cli::LaunchNode launch_node = cosched::cli::launch_node(flags.run);
  const config::PlatformConfig& node = launch_node.node;
  const launcher::LaunchInputs inputs =
      launcher::read_launch_inputs({flags.schedule, flags.workload, flags.instance}, node, launch_node.platform_file);
  const sim::LaunchPlan& plan = inputs.plan;

  launcher::LaunchSettings settings = cosched::cli::launch_settings(
      flags.run, node, std::filesystem::path(flags.schedule).replace_extension(".journal.jsonl"));
  settings.policy = flags.policy;
  settings.schedule_source = flags.schedule;
  settings.workload_source = flags.workload;

  fmt::print("launching {} tasks of {} ({} policy) on {}; journal {}\n", plan.tasks.size(), plan.algorithm,
             flags.policy, launcher::describe_node(node, settings.tier), settings.journal.string());
  fmt::print("{}\n", launcher::describe_predictions(plan, inputs.instance_given));
  // Before any task runs: output that cannot be written (stdout on a full disk) fails the launch, not after it.
  cosched::flush_standard_output();
  const launcher::LaunchSummary summary = launcher::launch(plan, inputs.workload, settings);
  cosched::cli::report_launch(summary, settings);
}

const cosched::cli::CommandRegistration launch_registration{"launch", [](CLI::App& app) {
  auto* sub = app.add_subcommand("launch", "Run a schedule on this node's cores and memory tiers, journaled");
  auto flags = std::make_shared<LaunchCommandFlags>();
  sub->add_option("schedule", flags->schedule,
                  "Schedule JSON (cosched plan; it carries its instance's bandwidth model, if any, for the "
                  "contention-aware prediction); with --slurm, the plan folder of `cosched plan --nodes N`")
      ->required();
  sub->add_option("--workload", flags->workload,
                  "What each task id runs: workload TOML, Instance JSON of `cosched instance`, or command JSON "
                  "(required without --slurm)");
  sub->add_flag("--slurm", flags->slurm,
                "Inside a Slurm allocation: one job step per node of the plan folder, merged report "
                "(docs/cluster.md)");
  sub->add_option("--instance", flags->instance,
                  "Instance JSON the schedule came from (checks the schedule; its bandwidth model, if any, gives the "
                  "contention-aware prediction in place of the one the schedule carries)");
  sub->add_option("--policy", flags->policy, "auto | list | pack")->capture_default_str();
  cosched::cli::add_launch_flags(*sub, flags->run);
  sub->callback([flags] { run_launch(*flags); });
}};

}  // namespace
