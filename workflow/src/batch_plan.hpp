#pragma once
// How `cosched run` comes to its plan (run_batch.cpp): what it knows of the batch and what it measures first
// (cosched/profiler/learning.hpp: the knowledge store, a budgeted measurement strategy), the instance and its plan,
// the prediction with its interval, and what the launch teaches the next batch.
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/launcher/launch_inputs.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/profile_cache.hpp"
#include "cosched/profiler/run_history.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/schedule.hpp"
#include "cosched/workflow/node_launch.hpp"
#include "cosched/workflow/run_batch.hpp"

namespace cosched::workflow::detail {

struct BatchPlan {
  sched::Instance instance;
  sched::Schedule schedule;
  // Per task, the sd of ln(time) at every allocation of the instance's space (the fits'); empty where no fit made
  // the times (the exhaustive path: only the node's launch-to-launch noise makes the interval).
  std::vector<std::vector<double>> log_sd;
  // Per task, the most fast memory its fit does not know of may take off ln(time), at every allocation
  // (profiler::KnowledgeInstance::log_gain_bound); empty where no fit made the times.
  std::vector<std::vector<double>> log_gain_bound;
  // The tasks timed at a guess, by id (profiler::guessed_tasks of the instance, its one reading): of kinds never
  // measured, or known only at amounts of work too far from theirs to carry; they run at a safe allocation.
  std::set<std::string> guessed;
  // Per task, whose error its error is (knowledge::IntervalOptions::error_groups): 0 the guess, k > 0 its kind's fit.
  std::vector<std::size_t> error_groups;
  profiler::LaunchProfiling profiling;  // what its profiling had and spent, for the node's launch history
  // What it was planned from, for re-planning the launch as the first runs of its guessed kinds come in
  // (profiler::LaunchReplanner): the knowledge, how it was learnt (the node, the fits' options) and the node's pools.
  profiler::BatchKnowledge known = {};
  profiler::LearningOptions learning = {};
  std::optional<profiler::NodeBandwidth> bandwidth = std::nullopt;
  // Per task, how much slower tasks beside it may make it where nothing predicts it: no node model, and its kind's
  // times all measured alone (knowledge::IntervalOptions::co_running_log_bound); 0 where either does.
  std::vector<double> co_running_log_bound = {};
};

// The plan of `batch` (its commands get their kinds' names as `profile`): the node model (--node, the cache's, or
// calibrated within a budget the user gave), what is known of each kind and measured within the budget
// (profiler::learn_batch with run.profile_strategy), the instance of the fits, and its schedule — the naive one
// when nothing is known. Everything it says goes to `reporter`.
[[nodiscard]] BatchPlan plan_batch(const RunBatchOptions& run, config::Workload& batch,
                                   const profiler::ProfileCache& cache, const RunNode& node,
                                   const sched::Algorithm& algorithm, Reporter& reporter);

struct PredictionInterval {
  double predicted_s = 0.0;  // the contention-aware makespan where there is one, else the paper model's
  double low_s = 0.0;        // the 80 % interval
  double high_s = 0.0;
  std::size_t guessed_tasks = 0;  // tasks whose time is a guess (kinds never measured)
};

// The prediction of `inputs.plan` as a result, with its 80 % interval: Monte Carlo over the fits' uncertainty
// (`plan.log_sd`), the gain of fast memory its kinds were never measured on (`plan.log_gain_bound`), the slowdown
// of tasks side by side that nothing predicts (`plan.co_running_log_bound`) and this node's launch-to-launch noise
// (profiler::launch_noise), through the simulation core.
[[nodiscard]] PredictionInterval report_prediction(const BatchPlan& plan, const launcher::LaunchInputs& inputs,
                                                   const profiler::ProfileCache& cache, Reporter& reporter);

// After the launch: every task that ran well is a run of its kind (de-contended), kept for the next batch, and the
// launch's predicted and observed makespans, with what its profiling had and spent, go to the node's history.
// Says what it learnt.
void learn_from_launch(const launcher::LaunchSummary& summary, const config::Workload& batch,
                       const std::optional<PredictionInterval>& predicted, const profiler::LaunchProfiling& profiling,
                       const profiler::ProfileCache& cache, const std::string& placement, Reporter& reporter);

}  // namespace cosched::workflow::detail
