#include "cosched/workflow/slurm_launch.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/launcher/cluster/cluster_launch.hpp"
#include "cosched/sched/cluster_manifest.hpp"

namespace cosched::workflow {

namespace launcher = cosched::launcher;
using launcher::ClusterLaunchOptions;
using launcher::ClusterReport;
using launcher::NodeStep;
using launcher::StepAction;
namespace slurm = launcher::slurm;

ClusterReport run_slurm_launch(const SlurmLaunchRequest& request, Reporter& reporter) {
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path plan = std::filesystem::absolute(request.plan).lexically_normal();
  const sched::ClusterManifest manifest = sched::load_cluster_manifest(plan);
  const slurm::Allocation allocation = slurm::allocation_from_environment(slurm::process_environment());
  ClusterLaunchOptions options;
  options.plan = plan;
  options.cosched = launcher::this_executable();
  options.resume = request.resume;
  options.force = request.force;
  options.step_options = request.step_options;
  options.job_name = fmt::format("cosched-{}", allocation.job_id);
  const std::vector<NodeStep> steps = plan_node_steps(manifest, allocation, options);

  reporter.note(fmt::format("cluster launch of {} ({} on {} nodes) in Slurm job {}", plan.string(),
                            manifest.algorithm, manifest.nodes.size(), allocation.job_id));
  for (const auto& step : steps) {
    reporter.note(fmt::format("  plan node {} -> {} ({}, {} CPUs){}", step.node, step.host, to_string(step.action),
                              allocation.cpus[step.node],
                              step.action == StepAction::skip ? ": every task already completed"
                                                              : fmt::format("; log {}", step.log.string())));
  }
  // Before any step runs: progress that cannot be written (a full disk) fails the launch, not after it.
  reporter.flush();
  const auto outcomes = launcher::run_node_steps(steps);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> failed;
  for (const auto& outcome : outcomes) {
    if (outcome.exit_code != 0) {
      failed.push_back(fmt::format("node {} on {} (exit {}, see {})", outcome.step.node, outcome.step.host,
                                   outcome.exit_code, outcome.step.log.string()));
    }
  }
  std::optional<ClusterReport> report;
  try {
    report = launcher::summarize_cluster(plan);
  } catch (const InputError& error) {
    if (failed.empty()) throw;
    reporter.note(fmt::format("no merged report: {}", error.what()));
  }
  if (report) {
    reporter.result({"cluster-report", launcher::format_cluster_report(*report), launcher::to_json(*report)});
    const bool fresh = std::all_of(steps.begin(), steps.end(),
                                   [](const NodeStep& step) { return step.action == StepAction::start; });
    if (fresh) {
      reporter.note(fmt::format("cluster launch wall time {:.3f} s: the slowest node's observed makespan {:.3f} s + "
                                "{:.3f} s of Slurm steps, start-up and merge",
                                wall, report->observed_makespan, wall - report->observed_makespan));
    } else {
      // A resumed node's observed makespan sums its segments, earlier launches included: no overhead to tell.
      reporter.note(fmt::format(
          "cluster launch wall time {:.3f} s (a resume: observed makespans include the earlier segments)", wall));
    }
  }
  if (!failed.empty()) {
    throw RuntimeFailure(fmt::format("{} of {} node steps failed: {}; continue with cosched launch {} --slurm "
                                     "--resume",
                                     failed.size(), steps.size(), fmt::join(failed, "; "), plan.string()));
  }
  return *report;
}

void write_slurm_script(const SlurmScriptOptions& options) {
  try {
    check_identifier(options.job_name, "--job-name");
  } catch (const InputError& error) {
    throw UsageError(error.what());
  }
  const auto overwrite = overwrite_if_forced(options.force);
  check_output_path(options.output, overwrite, "sbatch script");
  const auto plan = std::filesystem::absolute(options.plan).lexically_normal();
  const auto manifest = sched::load_cluster_manifest(plan);
  slurm::ScriptOptions script;
  script.cosched = launcher::this_executable();
  script.plan = plan;
  script.job_name = options.job_name;
  script.margin = options.margin;
  script.slack_s = options.slack_s;
  if (!options.platform.empty()) {
    // Read here, as every node's launch will: a platform they would refuse (a NaN capacity) is refused now.
    (void)config::load_platform_config(options.platform);
    script.launch_options = {"--platform", std::filesystem::absolute(options.platform).string()};
  }
  slurm::check_script_output(options.output, manifest, script);
  write_text_file(options.output, slurm::sbatch_script(manifest, script), overwrite, "sbatch script");
}

}  // namespace cosched::workflow
