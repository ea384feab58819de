#pragma once
// Knowledge that pays for itself (issue 39): what `cosched run` knows of a batch before it plans it, and what it
// learns from running it.
//
//   1. Each kind of task (task_kinds.hpp) starts from what the node's knowledge store holds of it
//      (knowledge_store.hpp): runs profiled on purpose and runs observed in earlier batches, at any amount of work.
//   2. Within a profiling budget, a measurement strategy (cosched/knowledge/strategy.hpp, `adaptive` by default)
//      says which runs are worth their cost: short runs where a task says how its work scales, a few core counts,
//      more points only where the plan's choice depends on them. A kind never measured is measured first: an
//      automatic budget (once some kind of the batch is known) prices its run as one more task of the batch at the
//      guessed time, its share of the work; a budget the user gave starts it whatever it may cost. Either way the
//      run is stopped at the budget's end. With nothing of the batch known, an automatic budget has no scale: a
//      kind that says how its work scales is first measured by two short runs (ProfileBudget::first_runs_share).
//   3. The kinds measured at 0 fast chunks get a fit (cosched/knowledge/task_fit.hpp) per amount their tasks run;
//      the instance is made of the fits (times, and how sure each is). A kind never measured is unknown: its tasks
//      run at a safe allocation (one core, no fast chunk), and with nothing known at all the batch runs as the
//      naive way does (one core each, in the file's order: naive_plan).
//   4. After the batch ran, every task's observed time — de-contended by the contention-aware prediction — is a
//      run of its kind at its allocation and amount (learn_from_launch): the next batch starts from it.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/knowledge/strategy.hpp"
#include "cosched/knowledge/task_fit.hpp"
#include "cosched/profiler/knowledge_store.hpp"
#include "cosched/profiler/launched_profile.hpp"
#include "cosched/profiler/task_kinds.hpp"
#include "cosched/profiler/traffic.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::profiler {

// The profiling budget of a run: seconds of measuring it may spend before planning.
struct ProfileBudget {
  std::optional<double> seconds;  // given by the user (--profile-budget S); nullopt: auto
  double share = 0.1;  // auto: this share of the batch's predicted makespan (kinds never measured at the guess),
                       // once some kind of it is known; with nothing known and no first short runs, 0 (the batch
                       // runs the naive way); with every kind known, at most what knowing more may save (the plan
                       // on every fit one sd up less the plan on the medians); beside kinds never measured, the
                       // runs of the kinds known spend at most that
  // auto, nothing of the batch known: each kind that says how its work scales is measured first by two short runs
  // (its strategy's cheapest point at two amounts) when they take at most this share of its tasks' work, the kinds
  // with the most tasks first — then the batch has a plan and the budget a scale, and what they cost is spent from
  // it. A run's fixed cost is not in the share: it is what the runs tell. 0: never (the naive way whenever nothing
  // is known).
  double first_runs_share = 0.05;
  // auto: plus what the batch's earlier runs saved of their shares (saved_profiling_budget), at most this many
  // shares — so that a kind's run that costs more than one share is paid for within a few runs, and savings a
  // batch never needed do not pay for a long profiling spree once it changes.
  double max_saved_shares = 4.0;
};

struct LearningOptions {
  LaunchedProfileOptions launched;  // the node, its tier, stream_bench; launched.reporter hears the progress
  std::string strategy = "adaptive";
  ProfileBudget budget;
  knowledge::StrategyOptions strategy_options;
  knowledge::TaskFitOptions fit;
  bool tier_places_commands = false;  // commands get fast chunks here (else they are fitted over cores only)
  bool forget = false;  // --reprofile: every kind starts from nothing (what is measured now replaces the store's)
};

// What is known of one kind.
// Another kind of this node's store running the same program (same path, environment and placement) with other
// arguments: where a command kind has run at one core count only, its relative's curve over cores, scaled by
// those runs, stands in for the core counts it never ran at (and says so).
struct RelativeKind {
  std::string command;                         // its argv, for the notes
  std::vector<knowledge::Measurement> runs;    // its runs without fast chunks
};

struct KindState {
  TaskKind kind;
  KindKnowledge known;
  std::string note;              // the store's note, or "" (why it starts afresh)
  std::size_t measured_now = 0;  // runs profiled in this call
  double measured_s = 0.0;       // their seconds
  std::vector<std::string> notes;  // what the strategy or a failed run left to say
  // Why an amount of work has no fit, from the last fit only: a fit made before the kind's second run failed where
  // the one after it holds, and saying so would be stale.
  std::vector<std::string> fit_notes;
  // A profiling run's wall time beyond the seconds it measured (process start, allocation and first touch, memory
  // warm-up, validation), the largest seen in this call; nullopt before its first run.
  std::optional<double> run_overhead_s;
  std::optional<RelativeKind> relative;  // commands: the relative its curve may be borrowed from
  bool borrows_curve = false;            // the fits now borrow the relative's curve
  // A fit per amount of work its tasks run (TaskKind::production), when it has a run at 0 fast chunks.
  std::map<double, std::shared_ptr<const knowledge::FittedTask>> fits;
  [[nodiscard]] bool known_at_all() const { return !fits.empty(); }
};

struct BatchKnowledge {
  std::vector<KindState> kinds;
  double budget_s = 0.0;          // what profiling could spend
  std::string budget_why;         // how the budget was set, in words
  std::optional<double> share_s;  // an automatic budget: this run's own share (budget_s less what it drew saved)
  double spent_s = 0.0;           // what it spent (wall time of the runs)
  std::size_t runs = 0;           // runs measured in this call
  bool stopped_by_budget = false;  // a run worth measuring was left out for lack of budget
  // Per kind this node's store holds (none with --reprofile), its one-core time at the most work it ran there: what
  // tasks on this node take, the guess's ground when no kind of the batch is known (node_task_seconds).
  std::vector<double> node_task_seconds;
  // The largest overhead per run the node's recent profiling paid (recent_run_overhead), nullopt when none is
  // recorded: what a run costs beyond its estimate before any run of this call has said.
  std::optional<double> recorded_run_overhead_s;
  // Where a STREAM kind's run first touches and frees its footprint (the host takes back free memory): what that
  // costs a byte, by the node's recent warm-ups (recent_warm_up_seconds_per_byte); nullopt elsewhere or unknown.
  std::optional<double> warm_up_s_per_byte;
  // What a run of kinds[kind] estimated at `estimated_s` will take from the budget: the estimate plus the kind's
  // overhead per run, or before its first run the most of the largest any kind paid in this call (else the node's
  // recorded one) and its own memory warm-up at warm_up_s_per_byte (the budget is wall time, and a short run's
  // overhead can be most of it: a 0.14 s run of triad at 64 MiB took 0.20 s; a one-pass run of copy at 128 MiB,
  // 21 ms by its fit, 0.33 s with its memory warm-up).
  [[nodiscard]] double expected_run_cost(std::size_t kind, double estimated_s) const;
  // Counts a run of kinds[kind] that took `wall_s` of the budget and measured `measured_s`. A run that failed
  // (nullopt) and was stopped at `stopped_at_s` of its own clock paid at least wall_s - stopped_at_s in overhead.
  void count_run(std::size_t kind, std::optional<double> measured_s, double wall_s,
                 std::optional<double> stopped_at_s = std::nullopt);
  // The largest overhead per run any kind paid in this call (nullopt: no run said), for the node's history.
  [[nodiscard]] std::optional<double> run_overhead_s() const;
  [[nodiscard]] std::size_t unknown_kinds() const;
  [[nodiscard]] const KindState& of(const config::WorkloadTask& task) const;
  [[nodiscard]] KindState& of(const config::WorkloadTask& task);
};

// Steps 1-3 for `workload` (its commands get their kinds' names as `profile`), under the node's cache lock: what
// is known, the runs the budget allows, their storage (each run and probe as soon as it is measured: a killed call
// loses only the run in progress), and the fits. Progress and what it decides go to
// options.launched.reporter. Throws like task_kinds and the measurers' construction; a run that fails is a note, not
// an error (the kind keeps what it knew).
[[nodiscard]] BatchKnowledge learn_batch(config::Workload& workload, const ProfileCache& cache,
                                         const LearningOptions& options);

// Learning as the launch goes (launch_replanner.hpp): `task` of the batch ran `seconds` at `allocation` (cores, fast
// chunks), a run of its kind in `known` only — learn_from_launch stores it once the launch is over — and the kind's
// fits are made again (with options.fit, on the node options.launched.platform describes). A one-core run without
// fast chunks is also one more time of what tasks on this node take (node_task_seconds: the guess's ground).
void add_observed_run(BatchKnowledge& known, const config::WorkloadTask& task, const std::vector<int>& allocation,
                      double seconds, const LearningOptions& options);

// An allocation (cores, fast chunks) in words: "2 cores", "1 core + 20 fast chunks".
[[nodiscard]] std::string allocation_words(const std::vector<int>& alloc);

// The instance of the batch from what is known: per task its kind's fit at the task's amount (cores x fast chunks;
// cores only for a command where the tier does not place commands), the node's pools and each task's traffic (a
// STREAM task's counted bytes, corrected by its probe; a command's from its probe) when `bandwidth` is given. A
// task of an unknown kind may run on one core and no fast chunk only, at a guess (said in its
// attributes: "unknown": true). Every task's sd of ln(time) at every allocation, as an interval allows it
// (knowledge::FittedTask::interval_log_sd), is in `log_sd` (indexed like the
// instance's tasks, then its allocation space), and in `log_gain_bound` the most fast memory may take off ln(time)
// where the fit does not know (knowledge::IntervalOptions::log_gain_bound): at fast chunks its kind was never
// measured on, the fit assumes no gain, and the gain may reach the tiers' bandwidth ratio (fast_tier_log_gain).
struct KnowledgeInstance {
  sched::Instance instance;
  std::vector<std::vector<double>> log_sd;
  std::vector<std::vector<double>> log_gain_bound;
};
// `times`: which time of each fit (knowledge::TimeChoice) — the medians predict, a plan is chosen on the expected
// times (kExpectedTimes), the plan on cautious times is what is known for sure. The guess is the same in all.
[[nodiscard]] KnowledgeInstance knowledge_instance(const config::Workload& workload, const BatchKnowledge& known,
                                                   const config::PlatformConfig& platform,
                                                   const NodeBandwidth* bandwidth, bool tier_places_commands,
                                                   const knowledge::TimeChoice& times = knowledge::kMedianTimes);

// The ids of the tasks whose times in `instance` are the guess (knowledge_instance's "unknown": true): what a
// comparison of the plan with its launch marks `(guessed)` and leaves out of its median error. The one reading of
// the mark, for the plan in memory and for the plan a --resume reads back from its run folder. A task without the
// attribute was not guessed. Throws InputError(source) naming the task when the attribute is not a boolean.
[[nodiscard]] std::set<std::string> guessed_tasks(const sched::Instance& instance, const std::string& source);

// ln of the most a task may gain from the fast tier: the ratio of the fast pool's peak bandwidth to the slow one's
// in the node model when there is one, else the platform's slow:fast ratio (emulation_ratio: the emulated tier's
// own, and for a real tier the documented prior, 5, MCDRAM:DDR on KNL). 0 when the fast tier is not faster.
[[nodiscard]] double fast_tier_log_gain(const config::PlatformConfig& platform, const NodeBandwidth* bandwidth);

// The one-core time of each kind `stored` knows (runs on one core without fast memory, at the most work it ran
// there: their median); kinds with no such run are left out.
[[nodiscard]] std::vector<double> node_task_seconds(const std::vector<KindKnowledge>& stored);

// The naive way as a schedule of `instance` (a knowledge_instance): every task on sched::naive_cores each with no fast
// chunk, in the file's order, each starting when its cores free up by the durations the instance has (guesses where
// nothing is known); launched with the greedy rule (sched::Schedule::launch_rule), each task starts as soon as
// cores are free whatever the guesses said — the `xargs -P <cores>` way, or all at once on even shares.
[[nodiscard]] sched::Schedule naive_schedule(const sched::Instance& instance);

// Step 4: the observed runs of a finished launch as runs of their kinds (status ok only), de-contended: each time
// scaled by the paper model's predicted duration over the contention-aware one (1 where either is missing), stored
// under the cache's lock. Returns how many runs were learnt.
struct ObservedTask {
  std::string id;
  std::vector<int> allocation;  // cores, fast chunks (what it ran with)
  double seconds = 0.0;         // observed
  double contention_factor = 1.0;  // paper / contention-aware predicted duration
};
std::size_t learn_from_launch(const config::Workload& workload, const std::vector<ObservedTask>& observed,
                              const ProfileCache& cache, const std::string& placement);

}  // namespace cosched::profiler
