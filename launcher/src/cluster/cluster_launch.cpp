#include "cosched/launcher/cluster/cluster_launch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <unordered_set>

#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/launcher/journal/replay.hpp"
#include "cluster/slurm_process.hpp"

namespace cosched::launcher {

namespace {

// A resumed node whose journal finished with every planned task completed has nothing left to run.
bool node_done(const std::filesystem::path& journal, const sched::ClusterManifestNode& node) {
  const JournalReplay replay = replay_journal(journal);
  if (!replay.finished()) return false;
  const auto completed = replay.completed_ids();
  const std::unordered_set<std::string> done(completed.begin(), completed.end());
  return std::all_of(node.tasks.begin(), node.tasks.end(), [&](const std::string& id) { return done.count(id) > 0; });
}

}  // namespace

std::string_view to_string(StepAction action) noexcept {
  switch (action) {
    case StepAction::start: return "start";
    case StepAction::resume: return "resume";
    case StepAction::skip: return "skip";
  }
  return "?";
}

std::vector<NodeStep> plan_node_steps(const sched::ClusterManifest& manifest, const slurm::Allocation& allocation,
                                      const ClusterLaunchOptions& options) {
  const std::vector<std::string> hosts = slurm::assign_nodes(manifest.nodes.size(), allocation);
  std::vector<NodeStep> steps;
  for (std::size_t k = 0; k < manifest.nodes.size(); ++k) {
    const sched::ClusterManifestNode& node = manifest.nodes[k];
    const std::filesystem::path journal = options.plan / node.journal;
    std::error_code error;
    const bool exists = std::filesystem::exists(journal, error);
    NodeStep step{k, hosts[k], StepAction::start, {}, options.plan / sched::node_file_name(k, ".step.log")};
    if (exists && options.resume) {
      step.action = node_done(journal, node) ? StepAction::skip : StepAction::resume;
    } else if (exists && !options.force) {
      throw UsageError(fmt::format("{} already holds a run of plan node {}: pass --resume to continue the plan's "
                                   "unfinished tasks, or --force to run it again from the start",
                                   journal.string(), k));
    }
    if (step.action != StepAction::skip) {
      std::vector<std::string> command{options.cosched.string(),
                                       "launch",
                                       (options.plan / node.schedule).string(),
                                       "--workload",
                                       (options.plan / node.instance).string(),
                                       "--instance",
                                       (options.plan / node.instance).string()};
      if (step.action == StepAction::resume) {
        command.insert(command.end(), {"--resume", journal.string()});
      } else {
        command.insert(command.end(), {"--journal", journal.string()});
        if (exists) command.emplace_back("--force");
      }
      command.insert(command.end(), options.step_options.begin(), options.step_options.end());
      step.argv = slurm::srun_argv(options.srun, hosts[k], allocation.cpus[k],
                                   fmt::format("{}-node{}", options.job_name, k), command);
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

std::vector<StepOutcome> run_node_steps(const std::vector<NodeStep>& steps) {
  std::vector<StepOutcome> outcomes;
  std::vector<pid_t> pids;
  std::exception_ptr failure;
  for (const NodeStep& step : steps) {
    outcomes.push_back({step, 0});
    pid_t pid = -1;
    if (step.action != StepAction::skip && !failure) {
      try {
        pid = slurm_detail::spawn_logged(step.argv, step.log);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    pids.push_back(pid);
  }
  for (std::size_t k = 0; k < pids.size(); ++k) {
    if (pids[k] > 0) outcomes[k].exit_code = slurm_detail::wait_exit_code(pids[k]);
  }
  if (failure) std::rethrow_exception(failure);
  return outcomes;
}

std::filesystem::path this_executable() {
  auto self = own_executable();
  if (!self) throw PlatformError("readlink", "cannot find the cosched executable (/proc/self/exe)", ENOENT);
  return *self;
}

}  // namespace cosched::launcher
