#pragma once
// A first run with nothing known, on simulated nodes (docs/knowledge.md, "A first run, re-planned as it learns"):
// `cosched run` plans a batch of commands none of whose kinds its store knows the naive way (profiler::learn_batch,
// knowledge_instance, naive_schedule: one core each in the file's order, or the node shared evenly when the batch
// has fewer tasks than cores), and launches it greedily; with in-launch re-planning (profiler::LaunchReplanner) the
// first run of each kind to end teaches its kind and the pending tasks are planned again with the default planner.
// Both launches run here on a simulated clock whose durations are the ground truth (knowledge_study's programs,
// ground_truth.hpp) with run-to-run noise, against the best naive way and the plan made with the true times.
//
// A batch draws programs (each one kind: a command with {work}), 1-4 tasks each at 0.5, 1 or 2 x the production
// work, until it has its size of tasks (a share of the node's cores), in a shuffled file order. Per batch:
//   naive        the naive plan, as `cosched run` makes it, launched without re-planning (--no-replan)
//   replan       the same plan launched with the LaunchReplanner (model-search, as `cosched run`)
//   best naive   the best of the ways a user runs it without cosched (naive_ways.hpp: xargs, longest first,
//                one by one on the whole node)
//   oracle       model-search on the true times (a fixed number of evaluations: the same plan on any machine)
// Every launch runs on the same noisy truth: a task's time at a core count is the truth there times a lognormal
// factor drawn from (seed, task, cores) alone, so the arms differ only by where and when they run each task.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"

namespace cosched::bench {

struct FirstRunNode {
  std::string name;
  int cores = 1;
};
// Cores-only nodes of knowledge_study's sizes: commands get no fast memory here.
[[nodiscard]] const std::vector<FirstRunNode>& first_run_nodes();

struct FirstRunOptions {
  std::vector<std::string> nodes;                 // names of first_run_nodes(); empty: all
  std::vector<double> sizes{0.5, 1.0, 2.0, 4.0};  // tasks per batch over the node's cores
  std::size_t seeds = 4;                          // batches per node and size
  std::uint64_t seed = 1;
  double noise = 0.05;                    // sd of ln(time) of one run
  double production_work = 1000.0;        // W: a program's production run (300-3000 s on one core)
  std::size_t oracle_evaluations = 4000;  // model-search's candidates for the oracle's plan
  // The re-plans' searches: 0, as `cosched run` plans them (within the replanner's wall-time budget: the re-plans
  // then depend on the machine's speed); N, each stopped at N candidates (or converged): the same on any machine.
  std::size_t replan_evaluations = 0;
};

// Tasks the re-planned launch started after the first wave: their starts against the naive launch's.
struct StartShift {
  std::size_t tasks = 0;
  double shift_s = 0.0;  // the sum of (re-planned start - naive start)
  double seconds = 0.0;  // the sum of their durations
};

struct FirstRunOutcome {
  std::string node;
  int cores = 0;          // the node's
  double size = 0.0;      // FirstRunOptions::sizes
  std::size_t batch = 0;  // seed index
  std::size_t tasks = 0;
  std::size_t kinds = 0;  // programs
  int naive_cores = 1;    // cores per task in the naive plan
  double naive = 0.0;     // makespans (s) on the noisy truth
  double replan = 0.0;
  double best_naive = 0.0;
  std::string best_naive_way;
  double oracle = 0.0;
  std::size_t widened = 0;          // tasks the re-planned launch ran on more cores than the naive plan
  double naive_idle_core_s = 0.0;   // core-seconds each launch left idle while tasks waited to start
  double replan_idle_core_s = 0.0;
  std::size_t replans = 0;              // LaunchReplanner::replans()
  double replan_seconds = 0.0;          // wall time the replanner took over the launch (every task it was shown)
  double longest_replan_seconds = 0.0;  // its longest call
  std::size_t searches = 0;             // the planner's searches, their candidates, how many its budget stopped
  std::size_t search_evaluations = 0;
  std::size_t searches_stopped_by_budget = 0;
  double search_budget_ms = 0.0;  // the budget they had
  StartShift known_kind;          // tasks whose kind was known when they started (a task of it had ended)
  StartShift unknown_kind;        // tasks whose kind was still a guess then
};

// Throws UsageError for an unknown node or options out of range.
void check_first_run_options(const FirstRunOptions& options);
// `progress` hears a line per node and size; `notes` (null: nowhere) what each launch's replanner learnt and
// re-planned, after a line naming the batch. Throws like check_first_run_options.
[[nodiscard]] std::vector<FirstRunOutcome> run_first_runs(const FirstRunOptions& options,
                                                          const std::function<void(const std::string&)>& progress = {},
                                                          Reporter* notes = nullptr);

[[nodiscard]] std::string first_run_csv(const std::vector<FirstRunOutcome>& outcomes);
// Per node and size: the means and worst of the ratios, the re-plans and their seconds.
[[nodiscard]] std::string format_first_run_table(const std::vector<FirstRunOutcome>& outcomes);
// Per node and size: where the re-plans started the tasks of known kinds and of guessed ones, and how long these
// ran; and how the re-plans' searches stopped.
[[nodiscard]] std::string format_start_shift_table(const std::vector<FirstRunOutcome>& outcomes);

}  // namespace cosched::bench
