#pragma once
// A task's Pareto front in (time, normalised area): the allocations Algorithm 1 of RR-9140 calls admissible —
// time strictly increasing, area strictly decreasing — and the only ones RA_d(s), L_min(d), the canonical
// allotments of seed 001 and the cluster split ever choose (docs/scheduling.md proves it and says where a tie rule
// matters). One ParetoFront per task and allocation space, kept with the task's profile (TimeProfile::front), so
// the lower bound, every algorithm and every node of a cluster plan share what was computed for the task.
//
// The front is found on demand, entry by entry, by a best-first branch and bound over boxes of the allocation
// space: times are non-increasing in every resource (the TimeProfile contract), so a box's fastest time is at its
// top corner and its smallest share at its bottom one, and share(bottom) * time(top) bounds every area inside it.
// RA_d(d) on the synthetic d = 4 instances needs one entry per task (the smallest area) and reads about 600 of the
// 328,185 allocation vectors for it; the whole list, when a caller needs it, is the O(P) scan of AdmissibleScanner.
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched {

// One allocation of a task: its time, its normalised area share_sum(p) * time (AllocationSpace::share_sum's fold,
// so areas agree bit for bit however the allocation was reached) and its linear index in the AllocationSpace.
struct AdmissibleAllocation {
  double time;
  double area;
  std::size_t index;
};

// Thread-safe: queries may come from several threads at once (the nodes of a cluster plan share profiles).
// Every entry returned is an entry of the front defined by lines 5-12 of Algorithm 1: sort all allocations by
// (time, area, index), keep one when its area is below every area before it.
class ParetoFront {
 public:
  // `profile` must outlive the front (TimeProfile::front keeps the front inside the profile).
  ParetoFront(const AllocationSpace& space, const TimeProfile& profile);
  ParetoFront(const ParetoFront&) = delete;
  ParetoFront& operator=(const ParetoFront&) = delete;

  [[nodiscard]] const std::vector<int>& capacities() const noexcept { return space_.capacities(); }

  // The entry of least area (the front's last, longest entry): lexicographic minimum of (area, time, index) over
  // the allocations with a finite time. Empty when every time is infinite.
  [[nodiscard]] std::optional<AdmissibleAllocation> least_area() const;
  // The last entry with time <= limit: the least area among the allocations that finish within `limit`
  // (seed 001's canonical allotment). Empty when even the fastest allocation takes longer.
  [[nodiscard]] std::optional<AdmissibleAllocation> within(double limit) const;
  // The entry before `entry` (the next shorter time); empty when `entry` is the fastest.
  [[nodiscard]] std::optional<AdmissibleAllocation> shorter_than(const AdmissibleAllocation& entry) const;
  // The first entry: the least area among the allocations of least time. Empty when every time is infinite.
  [[nodiscard]] std::optional<AdmissibleAllocation> fastest() const;
  // The whole front, time increasing (AdmissibleScanner's O(P) scan, once).
  [[nodiscard]] std::vector<AdmissibleAllocation> entries() const;

  // Not a front entry: the allocation of least share sum_i p_i/P(i) with a finite time, ties to the shorter time
  // and then the lower index (seed 001's "sequential" allotment; 1 processor for d = 1). Empty when every time is
  // infinite.
  [[nodiscard]] std::optional<AdmissibleAllocation> least_share() const;

  // Times read so far (TimeProfile::time_at calls and the scan's P), for tests and benchmarks.
  [[nodiscard]] std::size_t evaluations() const;

 private:
  struct Interval {  // every front entry with low <= time <= high is in known_
    double low;
    double high;
  };

  std::optional<AdmissibleAllocation> cached_within(double limit) const;
  void remember(const std::optional<AdmissibleAllocation>& entry, double limit) const;
  void materialise() const;

  AllocationSpace space_;
  const TimeProfile& profile_;
  double fastest_time_;  // the time at the full allocation: the least time of every allocation
  mutable std::mutex mutex_;
  mutable std::vector<AdmissibleAllocation> known_;  // front entries found so far, time increasing
  mutable std::vector<Interval> complete_;           // disjoint, increasing
  mutable bool whole_ = false;                       // known_ is the whole front
  mutable std::optional<std::optional<AdmissibleAllocation>> least_share_;
  mutable std::size_t evaluations_ = 0;
};

}  // namespace cosched::sched
