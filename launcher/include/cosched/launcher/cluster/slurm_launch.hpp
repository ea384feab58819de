#pragma once
// A cluster plan run inside a Slurm allocation, as `cosched launch PLAN_DIR --slurm` and `cosched demo --slurm`
// do it: one job step per plan node (cluster_launch.hpp), a line per step, then the merged report
// (docs/cluster.md).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cosched/launcher/cluster/cluster_report.hpp"

namespace cosched::launcher {

struct SlurmLaunchRequest {
  std::filesystem::path plan;
  bool resume = false;
  bool force = false;
  std::vector<std::string> step_options;  // passed to every node's `cosched launch`
};

// Runs the plan's steps and returns the merged report; what it does goes to `out`, a line per step, then the
// report. Throws UsageError outside an allocation, ResourceError when it has too few nodes, RuntimeFailure (exit
// 6) when a step failed (the report is written first when every node wrote a journal).
ClusterReport run_slurm_launch(const SlurmLaunchRequest& request, std::FILE* out);

// This executable, for the steps (the nodes must see it at the same path: a shared file system). Throws
// PlatformError when it cannot be found.
[[nodiscard]] std::filesystem::path this_executable();

}  // namespace cosched::launcher
