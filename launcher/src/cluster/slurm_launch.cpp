#include "cosched/launcher/cluster/slurm_launch.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/launcher/cluster/cluster_launch.hpp"
#include "cosched/common/host.hpp"
#include "cosched/sched/cluster_manifest.hpp"

namespace cosched::launcher {

std::filesystem::path this_executable() {
  auto self = own_executable();
  if (!self) throw PlatformError("readlink", "cannot find the cosched executable (/proc/self/exe)", ENOENT);
  return *self;
}

ClusterReport run_slurm_launch(const SlurmLaunchRequest& request, std::FILE* out) {
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path plan = std::filesystem::absolute(request.plan).lexically_normal();
  const sched::ClusterManifest manifest = sched::load_cluster_manifest(plan);
  const slurm::Allocation allocation = slurm::allocation_from_environment(slurm::process_environment());
  ClusterLaunchOptions options;
  options.plan = plan;
  options.cosched = this_executable();
  options.resume = request.resume;
  options.force = request.force;
  options.step_options = request.step_options;
  options.job_name = fmt::format("cosched-{}", allocation.job_id);
  const std::vector<NodeStep> steps = plan_node_steps(manifest, allocation, options);

  fmt::print(out, "cluster launch of {} ({} on {} nodes) in Slurm job {}\n", plan.string(), manifest.algorithm,
             manifest.nodes.size(), allocation.job_id);
  for (const auto& step : steps) {
    fmt::print(out, "  plan node {} -> {} ({}, {} CPUs){}\n", step.node, step.host, to_string(step.action),
               allocation.cpus[step.node],
               step.action == StepAction::skip ? ": every task already completed"
                                               : fmt::format("; log {}", step.log.string()));
  }
  // Before any step runs: progress that cannot be written (a full disk) fails the launch, not after it.
  if (std::fflush(out) != 0) throw PlatformError("write", "cannot write the cluster launch's progress", errno);
  const auto outcomes = run_node_steps(steps);
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
    report = summarize_cluster(plan);
  } catch (const InputError& error) {
    if (failed.empty()) throw;
    fmt::print(out, "no merged report: {}\n", error.what());
  }
  if (report) {
    fmt::print(out, "{}", format_cluster_report(*report));
    const bool fresh = std::all_of(steps.begin(), steps.end(),
                                   [](const NodeStep& step) { return step.action == StepAction::start; });
    if (fresh) {
      fmt::print(out,
                 "cluster launch wall time {:.3f} s: the slowest node's observed makespan {:.3f} s + {:.3f} s of "
                 "Slurm steps, start-up and merge\n",
                 wall, report->observed_makespan, wall - report->observed_makespan);
    } else {
      // A resumed node's observed makespan sums its segments, earlier launches included: no overhead to tell.
      fmt::print(out,
                 "cluster launch wall time {:.3f} s (a resume: observed makespans include the earlier segments)\n",
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

}  // namespace cosched::launcher
