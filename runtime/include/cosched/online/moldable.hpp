#pragma once
// The moldable online policies of seed 000 (Sec. 5.4 and 6): DBOS — a binary search on the target stretch S with
// MoldableEDF as the feasibility test, relaxed by the online factor rho — and the baselines Iterative and Improved
// Iterative of Sabin et al. The policies themselves are registered by name (dbos, iterative, improved-iterative);
// this header exposes the pieces the tests check one by one.
//
// Allocations are vectors of the instance's resources (a cluster: processors; a node: cores and fast chunks). The
// paper's "the smallest j processors" becomes an order by cost, the normalised area share_sum(p)·t(p) as RA_d of
// the core paper uses: a job's candidates are its admissible (Pareto) allocations from AdmissibleScanner, walked
// from the least area to the most — time strictly decreases and area strictly increases along the list.
// Allocations another one beats on both time and area are never candidates (a plateau of the speedup is skipped;
// of two allocations with the same area, only the faster one is kept).
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "cosched/sched/allocation.hpp"
#include "cosched/online/availability.hpp"
#include "cosched/online/policy.hpp"

namespace cosched::online {

// One job's candidate allocations in cost order (index 0: the least area, the job's reference allocation here).
class CandidateList {
 public:
  // `admissible`: AdmissibleScanner's list (time increasing); at least one allocation.
  CandidateList(const sched::AllocationSpace& space, std::span<const sched::AdmissibleAllocation> admissible);

  [[nodiscard]] std::size_t size() const noexcept { return times_.size(); }
  [[nodiscard]] double time(std::size_t k) const { return times_[k]; }
  [[nodiscard]] double area(std::size_t k) const { return areas_[k]; }
  // share_sum of the allocation: the normalised resources it takes.
  [[nodiscard]] double share(std::size_t k) const { return shares_[k]; }
  [[nodiscard]] std::span<const int> alloc(std::size_t k) const {
    return {amounts_.data() + k * dimensions_, dimensions_};
  }
  // `job` at candidate k from `start`.
  [[nodiscard]] Placement placement(std::size_t job, std::size_t k, double start) const;
  // The first candidate whose time is at most `budget` (size() when none): times decrease along the list.
  [[nodiscard]] std::size_t first_within(double budget) const;
  // Improved Iterative's step from candidate `from`: the later candidate k maximising the time saved per unit of
  // extra normalised resources, (t_from - t_k) / (share_k - share_from); ties: the nearer one. size() when `from`
  // is the last.
  [[nodiscard]] std::size_t steepest_step(std::size_t from) const { return steepest_[from]; }
  [[nodiscard]] double step_rate(std::size_t from, std::size_t to) const {
    return (times_[from] - times_[to]) / (shares_[to] - shares_[from]);
  }

 private:
  void find_steepest_steps();

  std::size_t dimensions_;
  std::vector<double> times_;
  std::vector<double> areas_;
  std::vector<double> shares_;
  std::vector<int> amounts_;          // candidates x dimensions, row-major
  std::vector<std::size_t> steepest_;  // steepest_step of every candidate
};

// The candidate lists of the pending jobs, computed the first time a job is asked for and dropped once it is no
// longer pending (started): 20,000 jobs x 513 allocations are never held at once.
class CandidateCache {
 public:
  explicit CandidateCache(const OnlineWorkload& workload);
  [[nodiscard]] const CandidateList& of(std::size_t job);
  // Drops the lists of the jobs not in `pending`. References from of() stay valid for the jobs kept.
  void retain(std::span<const std::size_t> pending);
  [[nodiscard]] std::size_t cached() const noexcept { return live_.size(); }

 private:
  const OnlineWorkload& workload_;
  sched::AdmissibleScanner scanner_;
  std::vector<sched::AdmissibleAllocation> admissible_;
  std::vector<std::unique_ptr<const CandidateList>> lists_;  // by job
  std::vector<std::size_t> live_;                            // jobs with a list
  std::vector<char> keep_;                                   // scratch of retain(), by job
};

// The availability profile at state.now: state.free now, each running job's allocation free again at its expected
// end. A job running late (expected_end <= now, the wall clock) is taken to end just after now, so nothing planned
// at now uses what it still holds.
[[nodiscard]] AvailabilityProfile running_profile(const OnlineState& state);

// ---- MoldableEDF (Algorithm 2, lines 9-19) ----

enum class WhenLate {
  stop,         // the first job that meets no deadline ends the call: the schedule is infeasible (binary search)
  place_anyway  // such a job goes at the candidate that completes first; the schedule is still infeasible
};

struct MoldableEdfPlan {
  struct Choice {
    std::size_t position = 0;   // in state.pending
    std::size_t candidate = 0;  // in that job's CandidateList
    double start = 0.0;
  };
  std::vector<Choice> choices;  // in the order placed (non-decreasing deadlines)
  bool feasible = true;
  double max_stretch = 0.0;     // over the jobs placed
};

// One invocation's MoldableEDF: the running profile and the pending jobs' lists are prepared once, then run(S)
// for every S the search tries.
class MoldableEdf {
 public:
  // `candidates` must not drop a pending job's list while this object is used.
  MoldableEdf(const OnlineState& state, CandidateCache& candidates);

  // Deadlines D_i = r_i + S·p_{i,1}; jobs in non-decreasing D_i (ties: release order); each at the first candidate
  // in cost order with an earliest fit x (holes allowed, nothing placed moves) such that x + t <= D_i, tested as
  // x <= D_i - t. Candidates with now + t > D_i are skipped by a binary search on the list.
  [[nodiscard]] MoldableEdfPlan run(double stretch, WhenLate when_late);
  // max_i (now + fastest time_i - r_i) / p_{i,1}: no schedule of the pending jobs has a smaller max stretch.
  [[nodiscard]] double stretch_lower_bound() const;
  [[nodiscard]] std::vector<Placement> placements(const MoldableEdfPlan& plan) const;
  [[nodiscard]] std::size_t calls() const noexcept { return calls_; }

 private:
  const OnlineState& state_;
  std::vector<const CandidateList*> lists_;  // by position in state.pending
  AvailabilityProfile running_;
  AvailabilityProfile profile_;  // scratch of run()
  std::vector<double> deadlines_;
  std::vector<std::size_t> order_;
  std::size_t calls_ = 0;
};

// ---- DBOS (Algorithm 2, lines 1-7) ----

// Relative precision of DBOS's binary search on S: it stops when hi - lo <= kDbosTolerance * hi.
inline constexpr double kDbosTolerance = 1e-3;
inline constexpr double kMaxOnlineFactor = 1e6;

struct DbosPlan {
  std::vector<Placement> placements;
  double searched_stretch = 0.0;  // the smallest S found feasible (the binary search's hi)
  double found_stretch = 0.0;     // max stretch of that schedule (line 3)
  bool relaxed = false;           // MoldableEDF(rho·S) was feasible and replaced it (lines 4-6)
  bool feasible = true;           // false only if no S was feasible (then placed anyway at the largest S tried)
  std::size_t moldable_edf_calls = 0;
};

// DBOS at one invocation. S starts at the lower bound (often feasible already); otherwise it doubles until
// MoldableEDF is feasible and is then bisected down to kDbosTolerance. MoldableEDF is greedy, so feasibility is not
// monotone in S: as in the paper, the binary search is a heuristic that keeps the best feasible schedule it met.
[[nodiscard]] DbosPlan dbos_plan(const OnlineState& state, CandidateCache& candidates, double rho);

// ---- Iterative and Improved Iterative (Sec. 5.4) ----

enum class StepRule {
  // Iterative: one candidate further; the job whose time drops the most steps.
  next_candidate,
  // Improved Iterative: k candidates further, k maximising the time saved per unit of extra normalised resources
  // (in 1-D: (p_x - p_{x+k}) / k); the job with the best such rate steps (the paper leaves the ranking implicit).
  steepest
};

// Job placements re-done across the trials of one invocation before the search stops (the jobs not yet frozen
// keep their current allocation): a bound on the cost of one invocation, not a tuning knob. A trial re-places only
// the jobs from the changed one on (earlier ones are unaffected by conservative backfilling in FCFS order), so
// below the bound the search is exactly the paper's; the SDSC and OSC replays (8000 jobs, 512 processors) stay
// far below it.
inline constexpr std::size_t kIterativePlacementBudget = 200'000;

struct IterativePlan {
  std::vector<Placement> placements;        // in FCFS (release) order
  std::vector<double> accepted_mean_flows;  // [0]: the reference schedule's, then one per accepted step
  std::size_t trials = 0;
  bool budget_exhausted = false;
};

[[nodiscard]] IterativePlan iterative_plan(const OnlineState& state, CandidateCache& candidates, StepRule rule,
                                           std::size_t placement_budget = kIterativePlacementBudget);

}  // namespace cosched::online
