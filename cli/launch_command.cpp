// `cosched launch`: run a list or pack schedule on this node's cores and memory tiers, journal it, and compare
// the observed makespan with the predicted ones — the paper model's and, when the schedule (or the instance) carries
// a bandwidth model, the contention-aware one (docs/launcher.md).
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/workflow/launch.hpp"
#include "launch_options.hpp"
#include "reporting.hpp"

namespace {

namespace workflow = cosched::workflow;

struct LaunchCommandFlags {
  workflow::LaunchCommandOptions options;
  cosched::cli::LaunchFlags run;
  std::string progress = "console";
};

// The flags as the pipeline's options: on one node, the run's launch options; with --slurm, what every node's
// step is given (--workload, --instance and a journal named by --resume are each node's, in the plan folder).
workflow::LaunchCommandOptions launch_command_options(const LaunchCommandFlags& flags) {
  workflow::LaunchCommandOptions options = flags.options;
  if (!options.slurm) {
    options.run = cosched::cli::launch_options(flags.run);
    return options;
  }
  if (!options.workload.empty() || !options.instance.empty()) {
    throw cosched::UsageError("--workload and --instance do not go with --slurm: the plan folder holds every node's "
                              "instance");
  }
  if (!flags.run.resume.empty()) {
    throw cosched::UsageError("with --slurm, --resume is a bare flag: it continues every node's journal in the plan "
                              "folder");
  }
  options.run.resume = flags.run.resume_given();
  options.run.force = flags.run.options.force;
  options.slurm_step_options = cosched::cli::step_launch_options(flags.run);
  return options;
}

const cosched::cli::CommandRegistration launch_registration{"launch", [](CLI::App& app) {
  auto* sub = app.add_subcommand("launch", "Run a schedule on this node's cores and memory tiers, journaled");
  auto flags = std::make_shared<LaunchCommandFlags>();
  sub->add_option("schedule", flags->options.schedule,
                  "Schedule JSON (cosched plan; it carries its instance's bandwidth model, if any, for the "
                  "contention-aware prediction); with --slurm, the plan folder of `cosched plan --nodes N`")
      ->required();
  sub->add_option("--workload", flags->options.workload,
                  "What each task id runs: workload TOML, Instance JSON of `cosched instance`, or command JSON "
                  "(required without --slurm)");
  sub->add_flag("--slurm", flags->options.slurm,
                "Inside a Slurm allocation: one job step per node of the plan folder, merged report "
                "(docs/cluster.md)");
  sub->add_option("--instance", flags->options.instance,
                  "Instance JSON the schedule came from (checks the schedule; its bandwidth model, if any, gives the "
                  "contention-aware prediction in place of the one the schedule carries)");
  sub->add_option("--policy", flags->options.policy, "auto | list | pack")->capture_default_str();
  cosched::cli::add_launch_flags(*sub, flags->run);
  cosched::cli::add_progress_option(*sub, flags->progress);
  sub->callback([flags] {
    const workflow::LaunchCommandOptions options = launch_command_options(*flags);
    // What it tells goes to stdout; its progress only as JSON lines (the console shows the summary at the end).
    const auto reporter = cosched::cli::command_reporter(flags->progress, {nullptr, stdout, stdout});
    workflow::run_launch(options, *reporter);
  });
}};

}  // namespace
