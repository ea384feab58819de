#pragma once
// `cosched run BATCH`: a user's own batch, profiled once (the profile cache), planned, predicted and run once,
// journaled and resumable (docs/launcher.md, "Your own batch: cosched run"). A composition of library calls:
// profiler::profile_through_cache -> profiler::batch_instance -> sched::plan -> launch_on_node. The command only
// parses its flags into RunBatchOptions; what the run tells (progress, the prediction, the run's comparison) goes
// to the reporter as it happens.
#include <optional>
#include <string>

#include "cosched/common/reporter.hpp"
#include "cosched/sim/default_planner.hpp"

namespace cosched::workflow {

struct RunBatchOptions {
  std::string batch;                             // workload TOML or JSON (docs/formats.md)
  std::string output;                            // the run's folder; empty: ./cosched-run-<batch name>
  std::string algorithm{sim::kDefaultPlanner};  // a registered planner (sim::find_algorithm)
  std::string cache;                             // the profile cache; empty: ProfileCache::default_root()
  std::string node;                              // node bandwidth model; empty: the cache's
  std::string platform;                          // platform TOML; empty: this machine
  std::string placement = "preferred";           // how commands get their fast share (platform::command_placement)
  unsigned reps = 2;                             // timed runs per profiled point
  std::optional<double> timeout_s;               // per-task timeout
  std::string memory_warm_up = "auto";           // launcher::parse_memory_warm_up_mode
  bool dry_run = false;                          // stop after the plan
  bool resume = false;                           // continue the run in `output`
  bool force = false;                            // start over in an `output` that holds a run
  bool reprofile = false;                        // measure every task kind again
  bool slurm = false;                            // inside a Slurm allocation: over its nodes, one step per node
};

// Runs the batch. Everything that can be refused (the algorithm, the folder, the node, the batch, every command's
// program) is refused before any work, by UsageError or InputError; a run that was interrupted or in which a task
// failed ends in RuntimeFailure, whose message says how to continue or where the logs are.
void run_batch(const RunBatchOptions& options, Reporter& reporter);

}  // namespace cosched::workflow
