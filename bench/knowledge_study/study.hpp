#pragma once
// The simulated knowledge study (issue 39 item 4, docs/knowledge.md): on simulated nodes, batches of programs
// whose true times the study knows (ground_truth.hpp) are profiled by each strategy — noisy runs, fitted by
// cosched::knowledge —, planned with the default planner on what was learnt, and each plan is run on the truth.
//
//   oracle       the plan made with the true times (no profiling): the best any knowledge can do
//   exhaustive   today's `cosched run`: every core count x {0, half, all} chunks x 2 runs at full size, per
//                distinct command (same program, other size: profiled again, as the cache's identity is the argv)
//   reseeded     the exhaustive knowledge planned again with other planner seeds: how far the planner alone
//                moves a plan (the resolution of every ratio in the table)
//   sparse       halving core counts, fitted, per distinct command
//   short-runs   the sparse points at two small sizes, per program; every size predicted from them
//   adaptive     a coarse first round of short runs (three core counts), then points where the plan puts each
//                task, within a budget (a share of the batch's predicted makespan) and at most three rounds
//   learning     adaptive, then the batch is run once with that plan and its observed times (production size, at
//                the planned allocations) join the fits: the plan of the batch's second run
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cosched/knowledge/measurement.hpp"
#include "cosched/knowledge/task_fit.hpp"

namespace cosched::bench {

struct StudyNode {
  std::string name;
  knowledge::NodeShape shape;
  std::size_t programs = 8;  // kinds of program in a batch; each runs three times (sizes W, W, 2 W)
};
[[nodiscard]] const std::vector<StudyNode>& study_nodes();
[[nodiscard]] const std::vector<std::string>& study_strategies();

struct StudyOptions {
  std::vector<std::string> nodes;       // names of study_nodes(); empty: all
  std::size_t batches = 5;
  std::uint64_t seed = 1;
  double noise = 0.03;                  // one run's noise (sd of ln)
  double launch_noise = 0.02;           // the node-wide factor of a run (sd of ln), in the intervals and runs
  double production_work = 1000.0;
  std::vector<double> profiling_work{10.0, 20.0};  // the amounts a task says it can be profiled at
  double budget_share = 0.1;            // adaptive: profiling budget as a share of the predicted makespan
  // model-search stops at a number of candidates (the same plan for a seed on any machine) within a generous
  // wall-time budget; a plan stopped by the budget is reported (run_study's progress).
  std::size_t planner_evaluations = 4000;
  std::size_t planner_seeds = 2;        // each plan: the best predicted of this many model-search seeds
  // The strategies table's plans: chosen on the fits' medians (--cautious z: z sd up). The recurring study plans as
  // cosched run does, on their expected times (recurring.cpp).
  knowledge::TimeChoice plan_times = knowledge::kMedianTimes;
  double planner_budget_ms = 60000.0;
  std::size_t interval_samples = 400;
  std::size_t observed_runs = 5;        // noisy runs of each plan, for the interval's coverage
};

struct StrategyOutcome {
  std::string node;
  std::size_t batch = 0;
  std::string strategy;
  std::size_t runs = 0;                // profiling runs
  double profiling_serial = 0.0;       // seconds, one run after the other (as cosched run profiles today)
  double profiling_packed = 0.0;       // seconds, the runs list-scheduled side by side on the node
  double makespan = 0.0;               // the plan run on the true times
  double exhaustive_makespan = 0.0;    // the exhaustive plan's, same batch
  double oracle_makespan = 0.0;        // the oracle plan's, same batch
  double predicted = 0.0;              // the plan's own prediction
  double low = 0.0;                    // its 10 % and 90 % quantiles
  double high = 0.0;
  double coverage = 0.0;               // share of the noisy runs inside [low, high]
  double task_error = 0.0;             // median |ln(predicted / true)| of the tasks' times at their allocations
};

struct AlgorithmOutcome {
  std::string node;
  std::size_t batch = 0;
  std::string algorithm;
  double makespan = 0.0;     // on the true times
  double lower_bound = 0.0;  // L_min(d) of the true instance
};

struct StudyResults {
  std::vector<StrategyOutcome> strategies;
  std::vector<AlgorithmOutcome> algorithms;
};

// Throws UsageError for an unknown node name or options out of range.
void check_study_options(const StudyOptions& options);
[[nodiscard]] StudyResults run_study(const StudyOptions& options,
                                     const std::function<void(const std::string&)>& progress = {});

// One CSV row per outcome (strategies, then algorithms), with a header naming the columns.
[[nodiscard]] std::string strategy_csv(const std::vector<StrategyOutcome>& outcomes);
[[nodiscard]] std::string algorithm_csv(const std::vector<AlgorithmOutcome>& outcomes);
// The tables docs/knowledge.md shows: per node and strategy the means over batches (and the worst plan ratio);
// per node and algorithm the mean makespan / L_min and / model-search's.
[[nodiscard]] std::string format_strategy_table(const std::vector<StrategyOutcome>& outcomes);
[[nodiscard]] std::string format_algorithm_table(const std::vector<AlgorithmOutcome>& outcomes);

}  // namespace cosched::bench
