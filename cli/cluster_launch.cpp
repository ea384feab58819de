#include "cluster_launch.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/launcher/cluster_launch.hpp"
#include "cosched/sched/cluster_manifest.hpp"

namespace cosched::cli {

std::filesystem::path this_executable() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw PlatformError("readlink", "cannot find the cosched executable (/proc/self/exe)", error.value());
  return self;
}

launcher::ClusterReport run_slurm_launch(const SlurmLaunchRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path plan = std::filesystem::absolute(request.plan).lexically_normal();
  const sched::ClusterManifest manifest = sched::load_cluster_manifest(plan);
  const launcher::slurm::Allocation allocation =
      launcher::slurm::allocation_from_environment(launcher::slurm::process_environment());
  launcher::ClusterLaunchOptions options;
  options.plan = plan;
  options.cosched = this_executable();
  options.resume = request.resume;
  options.force = request.force;
  options.step_options = request.step_options;
  options.job_name = fmt::format("cosched-{}", allocation.job_id);
  const std::vector<launcher::NodeStep> steps = launcher::plan_node_steps(manifest, allocation, options);

  fmt::print("cluster launch of {} ({} on {} nodes) in Slurm job {}\n", plan.string(), manifest.algorithm,
             manifest.nodes.size(), allocation.job_id);
  for (const auto& step : steps) {
    fmt::print("  plan node {} -> {} ({}, {} CPUs){}\n", step.node, step.host, launcher::to_string(step.action),
               allocation.cpus[step.node],
               step.action == launcher::StepAction::skip ? ": every task already completed"
                                                         : fmt::format("; log {}", step.log.string()));
  }
  flush_standard_output();
  const auto outcomes = launcher::run_node_steps(steps);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> failed;
  for (const auto& outcome : outcomes) {
    if (outcome.exit_code != 0) {
      failed.push_back(fmt::format("node {} on {} (exit {}, see {})", outcome.step.node, outcome.step.host,
                                   outcome.exit_code, outcome.step.log.string()));
    }
  }
  std::optional<launcher::ClusterReport> report;
  try {
    report = launcher::summarize_cluster(plan);
  } catch (const InputError& error) {
    if (failed.empty()) throw;
    fmt::print("no merged report: {}\n", error.what());
  }
  if (report) {
    fmt::print("{}", launcher::format_cluster_report(*report));
    const bool fresh = std::all_of(steps.begin(), steps.end(),
                                   [](const launcher::NodeStep& step) { return step.action == launcher::StepAction::start; });
    if (fresh) {
      fmt::print("cluster launch wall time {:.3f} s: the slowest node's observed makespan {:.3f} s + {:.3f} s of "
                 "Slurm steps, start-up and merge\n",
                 wall, report->observed_makespan, wall - report->observed_makespan);
    } else {
      // A resumed node's observed makespan sums its segments, earlier launches included: no overhead to tell.
      fmt::print("cluster launch wall time {:.3f} s (a resume: observed makespans include the earlier segments)\n",
                 wall);
    }
  }
  if (!failed.empty()) {
    throw RuntimeFailure(fmt::format("{} of {} node steps failed: {}; continue with cosched launch {} --slurm "
                                     "--resume",
                                     failed.size(), steps.size(), fmt::join(failed, "; "), plan.string()));
  }
  return *report;
}

}  // namespace cosched::cli
