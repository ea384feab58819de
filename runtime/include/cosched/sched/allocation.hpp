#pragma once
// Phase 1 of the two-phase algorithms: the resource allocation strategy RA_d(s) of Algorithm 1 (Sec. 4.2), which
// returns an allocation matrix p minimising L(p, s) = max(A(p)/s, t_max(p)). With s = d its value is L_min(d),
// the makespan lower bound of Lemma 1.
#include <cstddef>
#include <span>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/pareto_front.hpp"

namespace cosched::sched {

// Lines 5-12 of Algorithm 1 for one task: the allocations that survive "sort by time, keep an allocation only if
// its area is below every area seen so far" (ties in time broken by area, then by index) — the whole Pareto front
// of pareto_front.hpp in one O(P) pass. Streams the task's times through an internal buffer of P doubles (reused
// across tasks) and returns only the admissible list. ParetoFront uses it when a caller needs the whole list.
class AdmissibleScanner {
 public:
  void scan(const AllocationSpace& space, const TimeProfile& profile, std::vector<AdmissibleAllocation>& out);

 private:
  const double* weights_for(const AllocationSpace& space);
  static bool blocked_by_smaller_neighbour(const AllocationSpace& space, const double* times, std::size_t index);

  std::vector<double> times_;
  std::vector<int> weights_capacities_;  // the space weights_ was computed for
  std::vector<double> weights_;          // sum_i p_i/P(i) per allocation
  std::vector<double> bucket_threshold_;
  std::vector<AdmissibleAllocation> candidates_;
};

struct ResourceAllocation {
  std::vector<std::size_t> allocation;  // per task, linear index into the instance's AllocationSpace
  std::vector<double> time;             // t_j(p_j)
  double total_area = 0.0;              // A(p)
  double max_time = 0.0;                // t_max(p)
  double bound = 0.0;                   // L(p, s) = L_min(s)
};

// RA_d(s), Algorithm 1, on the tasks' Pareto fronts (TimeProfile::front): it walks each task's front from its
// least area towards shorter times, so it reads only the entries it uses. Throws InputError naming the task when a
// task has no finite time at any allocation.
[[nodiscard]] ResourceAllocation allocate_resources(const Instance& instance, double s);

// L_min(d) of Lemma 1: the value of RA_d(d).
[[nodiscard]] double lower_bound(const Instance& instance);

// L(p, d) = max(A(p) / d, t_max(p)) of any allocation: allocation[j] is task j's linear index in the instance's
// AllocationSpace, time[j] its time there. At least L_min(d), and at most the makespan of every valid schedule
// with these allocations.
[[nodiscard]] double allocation_bound(const Instance& instance, std::span<const std::size_t> allocation,
                                      std::span<const double> time);

}  // namespace cosched::sched
