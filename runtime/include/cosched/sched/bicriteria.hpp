#pragma once
// Seed 001: Dutot, Eyraud-Dubois, Mounié, Trystram, "Bi-criteria Algorithm for Scheduling Jobs on Cluster
// Platforms" (SPAA 2004) — makespan and sum_j w_j C_j together (docs/bicriteria.md). The building blocks are public so tests can check them one by one:
//   - the makespan lower bound of the Mounié–Rapine–Trystram dual approximation (one resource), the paper's C_max
//     reference, and the batch grid's estimate C*max;
//   - the doubling batches t_j = C*max / 2^(K-j), the small-task merge and the weight knapsack per batch;
//   - the interval-indexed LP lower bound on sum_j w_j C_j (with the validity fixes of the digest).
// The algorithms themselves (bicriteria, gang, sequential-lptf, list-mrt, list-wlptf, list-saf) are registered in
// src/sched/registry.cpp.
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "cosched/sched/allocation.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::sched {

// "The cheapest allocation that fits a time limit" — the canonical allotment, cost order = normalised area as in
// RA_d — read from each task's Pareto front (time strictly increasing, normalised area strictly decreasing), the
// one RA_d and L_min(d) use. Throws InputError naming a task whose times are all infinite.
class CanonicalAllotments {
 public:
  explicit CanonicalAllotments(const Instance& instance);
  // The smallest-area allocation of `task` with time <= limit; empty when even the fastest is longer.
  [[nodiscard]] std::optional<AdmissibleAllocation> within(std::size_t task, double limit) const {
    return fronts_[task]->within(limit);
  }
  [[nodiscard]] const AdmissibleAllocation& fastest(std::size_t task) const { return fastest_[task]; }

 private:
  std::vector<std::shared_ptr<const ParetoFront>> fronts_;
  std::vector<AdmissibleAllocation> fastest_;
};

// 0/1 knapsack with a vector of capacities: the items maximising the total weight with sum of demands <= capacity
// in every resource (exact dynamic programming over all capacity vectors, O(items * prod(P(i)+1))). Returns the
// chosen item indices in increasing order. Weights must be finite and >= 0; demands within the capacities.
struct KnapsackItem {
  std::vector<int> demand;
  double weight = 0.0;
};
[[nodiscard]] std::vector<std::size_t> max_weight_knapsack(const std::vector<KnapsackItem>& items,
                                                           const std::vector<int>& capacities);

// One batch [start, start + length) of the algorithm: its tasks with their allotment (linear allocation index)
// and time, in the local order the compaction lists them (stacked small tasks consecutively).
struct Batch {
  double start = 0.0;
  double length = 0.0;
  std::vector<std::size_t> tasks;
  std::vector<std::size_t> allocation;
  std::vector<double> time;
};

struct BatchPlan {
  double estimate = 0.0;  // C*max = batch_grid_estimate
  double first_length = 0.0;  // t_0
  std::vector<Batch> batches;  // batch j: [t_j, t_j + t_j) with t_j = t_0 * 2^j (the doubling stops at the longest time)
};

// t_0 = C*max / 2^K with K = floor(log2(C*max / t_min)), t_min the smallest positive time of any task: the
// shortest batch in which some task fits (t_min <= t_0 < 2 t_min). 1 when no task has a positive time.
[[nodiscard]] double first_batch_length(const Instance& instance, const CanonicalAllotments& allotments,
                                        double estimate);

// Algorithm of Sec. 3.2 up to (not including) the compaction: t_min = the smallest positive time, K =
// floor(log2(C*max / t_min)), batches of doubling length from t_0 = C*max / 2^K until every task is placed (the
// paper stops at K; the knapsack may leave tasks over, which later batches take). Per batch: the candidates (a
// time <= t_j at some allocation) at their canonical allotment, the small ones (<= t_j / 2) with the same
// allotment stacked next-fit by decreasing weight into pseudo-tasks of length <= t_j, and the max-weight knapsack.
[[nodiscard]] BatchPlan plan_batches(const Instance& instance);

// The makespan lower bound of the Mounié–Rapine–Trystram 3/2 dual approximation ([7] of the paper: "a good lower
// bound may easily be obtained by dual approximation"): the supremum λ* of the guesses its knapsack rejects, exact
// (a binary search over the breakpoints of the step functions, one O(n m) knapsack per probe). Valid for any times
// (docs/bicriteria.md has the proof; on monotone tasks it is MRT's test itself) and never below L_min(1).
// Empty for d > 1 (the shelves' argument "tasks longer than λ/2 share the instant λ/2" would need a knapsack over
// capacity vectors with a per-resource work budget: not done) and when n (m + 1) > 2^22 (the staircases are kept
// in memory); 0 without tasks. Throws InputError naming a task whose times are all infinite.
[[nodiscard]] std::optional<double> two_shelf_lower_bound(const Instance& instance);

// C*max of the batch grid ("the approximate C*max of the dual approximation"): the two-shelf bound where it
// exists, else L_min(d). docs/bicriteria.md says why this choice and what it changes.
[[nodiscard]] double batch_grid_estimate(const Instance& instance);

// The objective coefficient of a task ending in interval (T_{j-1}, T_j] of the LP below.
enum class LpCompletionCost {
  // max(T_{j-1}, the task's fastest time): a task cannot end before it could run alone (the default, stronger).
  fastest_time_floor,
  // T_{j-1}, the paper's reading (digest §2.3; the interval [0, T_0], which the paper lacks, keeps the fastest time).
  interval_start,
};

// The intervals of the LP below.
enum class LpIntervals {
  // [0, t_0], (t_j, t_{j+1}] doubling until t >= max(2 C*max, sum of the fastest times), (t_last, inf): every
  // completion time of every schedule lies in one of them, so the LP is a lower bound (the default).
  covering,
  // DIAGNOSTIC ONLY, NOT A LOWER BOUND: the paper's set as printed, (t_j, t_{j+1}] for j = 0..K, i.e. (t_0, 2 C*max].
  // It forces every task to end in there (no interval before t_0, none after 2 C*max), so it can exceed the
  // optimum; it is never below the covering LP with the same cost. Measures how much of the gap to the paper's
  // figures the missing intervals explain (docs/bicriteria.md, B1).
  paper_printed,
};

// The interval-indexed LP relaxation of Sec. 3.3 (reconstructed in the digest), solved with CLP. With the default
// `intervals` a lower bound on sum_j w_j C_j of every schedule of the instance: intervals [0, t_0], (t_j, t_{j+1}]
// doubling from the batch grid until t >= max(2 C*max, sum_j (fastest time of j)), and a last one (t_last, inf)
// without a surface constraint; a task ending in an interval costs `cost` (above); one surface constraint per
// resource and finite interval. With LpIntervals::paper_printed the same LP on the printed intervals: not a bound.
// 0 for an instance without tasks; empty when the solver does not report an optimum (no bound is claimed then),
// which for paper_printed includes an infeasible LP (the tasks' least surfaces do not fit by 2 C*max).
// The LP grows with the tasks (a column per task and interval) and CLP's time with it faster than linearly: `plan`
// solves it by itself only up to this many tasks, where it costs at most about what planning does
// (docs/bicriteria.md, "Where the LP is solved"); beyond, only when asked (`plan --lp-bound`).
inline constexpr std::size_t kLpBoundMaxTasks = 1000;
[[nodiscard]] inline bool lp_bound_affordable(const Instance& instance) {
  return instance.task_count() <= kLpBoundMaxTasks;
}

[[nodiscard]] std::optional<double> weighted_completion_lower_bound(
    const Instance& instance, LpCompletionCost cost = LpCompletionCost::fastest_time_floor,
    LpIntervals intervals = LpIntervals::covering);

// The lower bounds of an instance that a comparison of algorithms (`cosched plan --algorithm all`) shows on every
// row: L_min(d) as given, seed 001's makespan reference, and the three LPs only when `solve_lp` (else empty).
struct ComparisonBounds {
  double makespan = 0.0;                      // L_min(d)
  std::optional<double> two_shelf;            // seed 001's makespan reference (one resource only)
  std::optional<double> weighted;             // the LP on sum w_j C_j
  std::optional<double> weighted_paper_cost;  // the same LP with the paper's objective coefficients
  std::optional<double> weighted_printed;     // the LP on the paper's printed intervals: a diagnostic, NOT a bound
};
[[nodiscard]] ComparisonBounds comparison_bounds(const Instance& instance, double makespan_bound, bool solve_lp);

}  // namespace cosched::sched
