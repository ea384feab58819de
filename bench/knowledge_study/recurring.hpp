#pragma once
// A node owner's recurring batches, as `cosched run` treats them over time (docs/knowledge.md, "Recurring
// batches"): one pool of programs on one simulated node; each batch draws programs from it (the same programs
// again at other amounts of work, now and then a new one). Each program is a task kind that says how its work
// scales ({work}), so every amount of it is one kind.
//
//   recurring          what `cosched run` does today: with nothing known the batch runs the naive way (one core
//                      each, in the file's order, xargs -P like; with fewer tasks than cores the node shared
//                      evenly: profiler::naive_schedule) and every task's observed time is kept as a run of its
//                      kind at its allocation; the next batch plans from the kept runs plus what the adaptive
//                      strategy measures within the auto budget (10 % of the learning planner's predicted
//                      makespan; with every kind known, at most what knowing more may save: the plan on every fit
//                      one sd up less the plan on the medians), a kind never run measured first, its short runs
//                      priced as one more task of the batch at the guessed time (knowledge_instance's) times their
//                      share of its work; with the default planner (model-search), and the plan explores
//                      (sim::explore_in_slack: a task of a fitted kind moves to more fast chunks than planned, or
//                      more cores while its fit over cores stands on one count, where its kind never ran, when the
//                      plan's makespan holds on its cautious time there)
//   no-explore         recurring without the exploration (cosched run --no-explore)
//   unpriced           recurring where a kind never run is not measured (cosched run before 2026-11-29: its cost
//                      could not be told) and its tasks run on one core at the guess
//   run-budget         recurring with the budget a share of the plan that will run (model-search on what is known,
//                      the kinds never run at the guess) rather than of the learning planner's (t-list-lpt)
//   budget-follows     recurring with the budget set again from each re-plan's makespan as the runs come in (the
//                      first prediction, made on guesses, runs above the batch the plan then makes)
//   learn-in-launch    recurring whose launch learns (launch_learning.hpp): a task whose kind had run at one core
//                      count only ends at another, and the pending tasks are planned again
//
// Per batch: the profiling paid on purpose, the plan's makespan on the truth against the exhaustively profiled
// plan's and the plan with the true times', and against the best naive way's (xargs -P in the file's order,
// longest first on one core each, one by one on the whole node).
#include <functional>
#include <string>
#include <vector>

#include "knowledge_study/study.hpp"

namespace cosched::bench {

struct RecurringOptions {
  std::size_t sequences = 3;  // independent owners (pools and noise) per node
  std::size_t batches = 6;    // batches in each sequence
  double keep_share = 0.75;   // a program seen before comes back in the next batch with this probability
  double new_share = 0.5;     // a batch brings one program never seen with this probability
  std::vector<std::string> rows;  // recurring_rows() or recurring_extra_rows() to run; empty: recurring_rows()
  bool diagnose = false;          // fill RecurringOutcome's diagnosis (counterfactual plans: slower)
};

// Where a plan's loss and its profiling went (--diagnose; bench/results/knowledge-study-analysis-2026-11-29.md).
struct TaskDiagnosis {
  std::size_t task = 0;
  std::size_t kind = 0;
  std::string family;
  double work = 0.0;
  bool guessed = false;          // no fit: one core at the guess
  int cores = 0, chunks = 0;     // where the plan ran it
  double predicted = 0.0;        // the fit's median there (the guess when guessed)
  double truth = 0.0;            // the true time there
  int exhaustive_cores = 0, exhaustive_chunks = 0;  // where the exhaustive plan ran it
  double exhaustive_truth = 0.0;
  double fit_at_exhaustive = 0.0;  // this row's fit at the exhaustive plan's allocation (NaN when guessed)
  // The sd of ln t the fits state at each (FittedTask::at, which the expected times charge; NaN when guessed): how
  // far off they say they may be, next to how far off they were.
  double predicted_log_sd = 0.0;
  double fit_at_exhaustive_log_sd = 0.0;
  double start = 0.0;            // the plan's start on the truth
  std::size_t counts_before = 0;  // core counts (0 fast chunks) its kind had run at before this batch's profiling
  std::size_t counts_planned = 0;  // ... when the plan was made
};
struct RunDiagnosis {
  std::size_t kind = 0;
  int cores = 0, chunks = 0;
  double work = 0.0;
  double seconds = 0.0;
  bool used = false;             // a task of its kind runs at this allocation in the plan
};
struct KindDiagnosis {
  std::size_t kind = 0;
  std::string family;
  double makespan_with_exhaustive = 0.0;  // the row's plan again with this kind's fits the exhaustive ones
};

struct RecurringOutcome {
  std::string node;
  std::size_t sequence = 0;
  std::size_t batch = 0;
  std::string row;                 // recurring_rows()
  std::size_t tasks = 0;
  std::size_t new_kinds = 0;       // kinds of the batch never run before (on this row's knowledge)
  std::size_t runs = 0;            // profiling runs
  double profiling_serial = 0.0;   // their seconds, one after the other (as cosched run profiles)
  double profiling_wall = 0.0;     // the profiling's wall seconds: profiling_serial, or the packed rows' span
  double most_stretch = 1.0;       // packed: the largest observed / alone of a run (the disturbance)
  double peak_demand = 0.0;        // packed: the largest DDR bandwidth demand of runs in flight together / capacity
  double budget = 0.0;             // the auto budget (seconds)
  std::size_t explored = 0;        // tasks the plan gave idle cores or fast chunks to explore with
  double unexplored_makespan = 0.0;  // when it explored: the plan without those moves, on the truth
  std::size_t relearnt = 0;        // re-plans its launch took as it learnt (row learn-in-launch)
  bool naive = false;              // the batch ran the naive way (nothing known)
  double makespan = 0.0;           // the plan on the true times
  double exhaustive_makespan = 0.0;
  double oracle_makespan = 0.0;
  double naive_makespan = 0.0;     // the best naive way's, on the true times
  std::string naive_way;           // which one it was
  std::vector<TaskDiagnosis> task_diagnosis;  // --diagnose
  std::vector<RunDiagnosis> profiling;
  std::vector<KindDiagnosis> kinds;
  double makespan_all_exhaustive = 0.0;  // the row's plan with every kind's fits the exhaustive ones
  // The row's plan and the exhaustive plan, each as it launches, on the row's fits (medians; expected times, which
  // the planner chooses on): the exhaustive plan rated better than the row's by the row's own fits is a plan the
  // search missed; rated worse, one the fits' errors hid.
  double plan_on_fits = 0.0;
  double exhaustive_plan_on_fits = 0.0;
  double plan_on_expected = 0.0;
  double exhaustive_plan_on_expected = 0.0;
};

[[nodiscard]] const std::vector<std::string>& recurring_rows();
// Rules tried and not taken, run only when named (--rows; bench/results/knowledge-study-analysis-2026-11-29.md):
//   breadth-first       recurring with the kinds offered runs by how many core counts they ran at (never, one,
//                       more), then by weight: every kind's speed-up before any kind's detail
//   breadth-run-budget  breadth-first with run-budget's budget
//   packed              recurring with the runs side by side on disjoint cores and chunks, the budget charged in
//                       wall seconds of that packed profiling, co-running runs sharing the DDR bandwidth
//                       (packed_profiling.hpp: the rule, the disturbance model and its limits)
//   packed-calm         packed without the disturbance (runs side by side never slow each other): its upper bound
//   packed-half         packed with half the auto budget's share (5 %: less profiling, still side by side)
//   packed-narrow       packed on a node whose DDR bandwidth 4 cores saturate (p_sat = cores / 16, not / 4): the
//                       disturbance's stress test
//   packed-widest       packed with each kind's run with the most cores offered first (the strategy offers its
//                       cheapest first): a kind the budget leaves half measured still has its whole-node point
//   naive-first         with nothing known the batch runs the naive way (no first short runs)
//   first-short-one     with nothing known only the kind with the most tasks gets its first short runs
//   first-short-only    a batch that had first short runs spends no more budget
//   uncapped            the auto budget the share alone, also with every kind known (not at most what knowing more
//                       may save)
[[nodiscard]] const std::vector<std::string>& recurring_extra_rows();

// Throws UsageError like run_study for unknown nodes or options out of range.
[[nodiscard]] std::vector<RecurringOutcome> run_recurring(const StudyOptions& study, const RecurringOptions& options,
                                                          const std::function<void(const std::string&)>& progress = {});

[[nodiscard]] std::string recurring_csv(const std::vector<RecurringOutcome>& outcomes);
// --diagnose: one row per task, per profiling run, per kind's counterfactual plan.
[[nodiscard]] std::string recurring_diagnosis_csv(const std::vector<RecurringOutcome>& outcomes);
// Per node, row and batch index: the means over sequences (and the worst plan / exhaustive).
[[nodiscard]] std::string format_recurring_table(const std::vector<RecurringOutcome>& outcomes);

}  // namespace cosched::bench
