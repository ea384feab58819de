#pragma once
// `cosched launch`: a schedule run on this node's cores and memory tiers, journaled, and compared with the paper
// model's prediction and, when the schedule (or its instance) carries a bandwidth model, the contention-aware one
// (docs/launcher.md); with `slurm`, a cluster plan folder run one job step per node (docs/cluster.md).
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/workflow/node_launch.hpp"

namespace cosched::workflow {

struct LaunchCommandOptions {
  std::string schedule;       // Schedule JSON; with `slurm`, the plan folder of `cosched plan --nodes N`
  std::string workload;       // what each task id runs (required without `slurm`)
  std::string instance;       // the Instance JSON the schedule came from; empty: none
  std::string policy = "auto";  // auto | list | pack
  bool slurm = false;
  LaunchOptions run;          // the node, the journal (default: <schedule>.journal.jsonl), the launch settings
  std::vector<std::string> slurm_step_options;  // with `slurm`: what every node's `cosched launch` is given
};

// Runs the launch. The run's summary is reported as a result; throws RuntimeFailure (exit 6) when it was
// interrupted (how to resume) or a task failed, and as launcher::launch does before any work.
void run_launch(const LaunchCommandOptions& options, Reporter& reporter);

}  // namespace cosched::workflow
