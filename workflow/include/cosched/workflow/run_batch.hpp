#pragma once
// `cosched run BATCH`: a user's own batch, known as cheaply as its plan allows, planned, predicted with an interval,
// run once, journaled and resumable, and learnt from (docs/launcher.md, "Your own batch: cosched run"). A
// composition of library calls: profiler::learn_batch (the node's knowledge store, a budgeted measurement strategy)
// -> profiler::knowledge_instance -> sched::plan (or the naive plan when nothing is known) -> launch_on_node ->
// profiler::learn_from_launch. The command only parses its flags into RunBatchOptions; what the run tells
// (progress, what it knows, the prediction, the run's comparison) goes to the reporter as it happens.
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/profiler/learning.hpp"
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
  unsigned reps = 2;                             // timed runs per point of a calibration
  std::string profile_strategy = "adaptive";     // a registered knowledge::MeasurementStrategy
  std::optional<double> profile_budget_s;        // seconds of measuring before the plan; nullopt: automatic
  std::optional<double> timeout_s;               // per-task timeout
  std::string memory_warm_up = "auto";           // launcher::parse_memory_warm_up_mode
  bool dry_run = false;                          // stop after the plan
  bool resume = false;                           // continue the run in `output`
  bool force = false;                            // start over in an `output` that holds a run
  bool reprofile = false;                        // set aside what is known of every kind
  bool explore = true;  // a task may run where its kind never ran, the plan having room (exploration_options)
  bool replan = true;   // the first task of a guessed kind to end re-plans the pending tasks (LaunchReplanner)
  bool slurm = false;                            // inside a Slurm allocation: over its nodes, one step per node
};

// Runs the batch. Everything that can be refused (the algorithm, the folder, the node, the batch, every command's
// program) is refused before any work, by UsageError or InputError; a run that was interrupted or in which a task
// failed ends in RuntimeFailure, whose message says how to continue or where the logs are.
void run_batch(const RunBatchOptions& options, Reporter& reporter);

// What co-runners cost a task of a finished launch, by the launch's two predictions: its paper-model duration over
// its contention-aware one (1 without a contention-aware prediction, or when either is not > 0). Its observed time
// times this is what it would have taken alone: the run of its kind `cosched run` learns from it.
[[nodiscard]] double de_contention_factor(const launcher::TaskDeviation& task);

// The runs a finished launch teaches (profiler::learn_from_launch): every task that ended well, at the allocation it
// ran with and its observed time, de-contended (de_contention_factor) where it ran as planned. A task the launch
// re-planned (TaskDeviation::replanned) or that ran elsewhere than planned ran beside other tasks than its
// predictions say: they say nothing of its co-runners, and its factor is 1.
[[nodiscard]] std::vector<profiler::ObservedTask> observed_runs(const launcher::LaunchSummary& summary);

}  // namespace cosched::workflow
