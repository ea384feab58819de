#pragma once
// A cluster plan run inside a Slurm allocation, as `cosched launch PLAN_DIR --slurm` and `cosched demo --slurm`
// do it: one job step per plan node (cluster_launch.hpp), a line per step, then the merged report
// (docs/cluster.md).
#include <filesystem>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/launcher/cluster/cluster_report.hpp"

namespace cosched::workflow {

struct SlurmLaunchRequest {
  std::filesystem::path plan;
  bool resume = false;
  bool force = false;
  std::vector<std::string> step_options;  // passed to every node's `cosched launch`
};

// Runs the plan's steps and returns the merged report, reporting a line per step, then the report. Throws
// UsageError outside an allocation, ResourceError when it has too few nodes, RuntimeFailure (exit 6) when a step
// failed (the report is reported first when every node wrote a journal).
launcher::ClusterReport run_slurm_launch(const SlurmLaunchRequest& request, Reporter& reporter);

// `cosched slurm-script PLAN_DIR`: the sbatch script of a cluster plan, for users who submit rather than allocate.
struct SlurmScriptOptions {
  std::string plan;                 // the plan folder of `cosched plan --nodes N`
  std::string output = "-";         // the script ("-": stdout)
  std::string job_name = "cosched";
  double margin = 1.5;              // --time = margin x the predicted makespan + slack_s
  double slack_s = 300.0;
  std::string platform;             // the platform TOML every node's launch uses; empty: each node's own
  bool force = false;
};

// Writes the script (launcher::slurm::sbatch_script) after checking the name, the plan, the platform and where
// the script may be written. Throws UsageError for a job name that is not a safe identifier.
void write_slurm_script(const SlurmScriptOptions& options);

}  // namespace cosched::workflow
