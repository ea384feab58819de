#pragma once
// `cosched launch PLAN_DIR --slurm` and `cosched demo --slurm` share this: inside a Slurm allocation, one job
// step per plan node (launcher/cluster_launch.hpp), a line per step, then the merged report (docs/cluster.md).
#include <filesystem>
#include <string>
#include <vector>

#include "cosched/launcher/cluster_report.hpp"

namespace cosched::cli {

struct SlurmLaunchRequest {
  std::filesystem::path plan;
  bool resume = false;
  bool force = false;
  std::vector<std::string> step_options;  // passed to every node's `cosched launch`
};

// Runs the plan's steps and returns the merged report. Throws UsageError outside an allocation, ResourceError
// when it has too few nodes, RuntimeFailure (exit 6) when a step failed (the report is printed first when every
// node wrote a journal).
launcher::ClusterReport run_slurm_launch(const SlurmLaunchRequest& request);

// This executable, for the steps (the nodes must see it at the same path: a shared file system).
[[nodiscard]] std::filesystem::path this_executable();

}  // namespace cosched::cli
