#pragma once
// `cosched launch PLAN_DIR --slurm` (docs/cluster.md): one Slurm job step per plan node, each a single-node
// `cosched launch` of the node's schedule on the node Slurm allocated, all started at once and waited for. The
// steps write their journals into the plan folder; `cosched report PLAN_DIR` merges them.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/sched/cluster_manifest.hpp"

namespace cosched::launcher {

struct ClusterLaunchOptions {
  std::filesystem::path plan;     // the plan folder
  std::filesystem::path cosched;  // the executable every step runs (the nodes must see it at this path)
  bool resume = false;            // resume unfinished node journals, skip finished ones, start missing ones
  bool force = false;             // replace existing node journals
  std::vector<std::string> step_options;  // passed to every node's launch (--platform, --timeout, ...)
  std::string srun = "srun";
  std::string job_name = "cosched";
};

enum class StepAction { start, resume, skip };
[[nodiscard]] std::string_view to_string(StepAction action) noexcept;

struct NodeStep {
  std::size_t node = 0;
  std::string host;  // the allocated node
  StepAction action = StepAction::start;
  std::vector<std::string> argv;  // the srun command (empty when skipped)
  std::filesystem::path log;      // the step's stdout + stderr (appended)
};

// What each plan node's step runs, checked before anything starts: the node journals (an existing one needs
// --resume or --force: UsageError), the allocation (assign_nodes). Reads each existing journal on resume: a
// finished one whose tasks all completed is skipped.
[[nodiscard]] std::vector<NodeStep> plan_node_steps(const sched::ClusterManifest& manifest,
                                                    const slurm::Allocation& allocation,
                                                    const ClusterLaunchOptions& options);

struct StepOutcome {
  NodeStep step;
  int exit_code = 0;  // 0 for a skipped step; 128 + signal when srun died of one
};

// Starts every step that is not skipped (srun), then waits for all. Throws PlatformError when srun cannot be
// started (steps already started are still waited for first).
[[nodiscard]] std::vector<StepOutcome> run_node_steps(const std::vector<NodeStep>& steps);

// This executable, for the steps (the nodes must see it at the same path: a shared file system). Throws
// PlatformError when it cannot be found.
[[nodiscard]] std::filesystem::path this_executable();

}  // namespace cosched::launcher
