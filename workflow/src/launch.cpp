// `cosched launch` (cosched/workflow/launch.hpp): the inputs read for the node, the launch, its summary.
#include "cosched/workflow/launch.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "cosched/common/error.hpp"
#include "cosched/launcher/launch_inputs.hpp"
#include "cosched/launcher/run_report.hpp"
#include "cosched/workflow/slurm_launch.hpp"

namespace cosched::workflow {

namespace {

// `cosched launch PLAN_DIR --slurm`: one step per plan node, each a launch of that node's schedule.
void run_on_allocation(const LaunchCommandOptions& options, Reporter& reporter) {
  SlurmLaunchRequest request{options.schedule, options.run.resume, options.run.force, options.slurm_step_options};
  if (options.policy != "auto") request.step_options.insert(request.step_options.end(), {"--policy", options.policy});
  (void)run_slurm_launch(request, reporter);
}

}  // namespace

void run_launch(const LaunchCommandOptions& options, Reporter& reporter) {
  if (options.slurm) return run_on_allocation(options, reporter);
  if (options.workload.empty()) throw UsageError("--workload is required (without --slurm)");
  const RunNode node = run_node(options.run);
  const launcher::LaunchInputs inputs = launcher::read_launch_inputs(
      {options.schedule, options.workload, options.instance}, node.platform, node.platform_file);
  const sim::LaunchPlan& plan = inputs.plan;

  launcher::LaunchSettings settings =
      launch_settings(options.run, node, std::filesystem::path(options.schedule).replace_extension(".journal.jsonl"));
  settings.policy = options.policy;
  settings.schedule_source = options.schedule;
  settings.workload_source = options.workload;

  reporter.note(fmt::format("launching {} tasks of {} ({} policy) on {}; journal {}", plan.tasks.size(),
                            plan.algorithm, options.policy, node.description(), settings.journal.string()));
  reporter.note(launcher::describe_predictions(plan, inputs.instance_given));
  const launcher::LaunchSummary summary = launch_on_node(plan, inputs.workload, settings, &reporter);
  reporter.result({"launch-summary", launcher::format_summary(summary), launcher::run_comparison_json(summary)});
  require_completed(summary, {"resume with --resume " + settings.journal.string(),
                              fmt::format(" (see {})", settings.journal.string())});
}

}  // namespace cosched::workflow
