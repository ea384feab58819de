#pragma once
// The branch and bound behind ParetoFront (pareto_front.hpp): a best-first search over boxes [lo, hi] of one
// task's allocation space for the lexicographic minimum of a key over the allocations a limit admits.
//
// Why a box can be bounded from its corners alone: times are non-increasing in every resource (TimeProfile's
// contract), so every p in [lo, hi] has t(p) >= t(hi), and the share fold sum_i p_i/P(i) is non-decreasing under
// IEEE rounding (x <= y implies fl(x + z) <= fl(y + z)), so share(p) >= share(lo) and, products of non-negative
// doubles being monotone too, area(p) = fl(share(p) * t(p)) >= fl(share(lo) * t(hi)). A box whose bound key is
// above the best allocation found so far holds nothing better and is dropped; a box with t(lo) == t(hi) is
// constant in time and its bottom corner is its minimum (least share, hence least area, lowest index). Boxes are
// split in half along the resource with the largest share extent (hi_i - lo_i)/P(i), and the box with the least
// bound key is expanded first, so the search stops as soon as no box can beat the best allocation.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/pareto_front.hpp"

namespace cosched::sched::detail {

// One search per query, on the stack; its buffers are the calling thread's, reused by every query of the thread
// (a query never starts another), so a front costs no allocation per query.
class FrontSearch {
 public:
  // `fastest_time` = profile.time_at(space, capacities): the time of the full allocation, the least of all. A
  // search gives up once it has read `max_evaluations` times.
  FrontSearch(const AllocationSpace& space, const TimeProfile& profile, double fastest_time,
              std::size_t max_evaluations);
  // Gives the thread's buffers back when this search made them large (a search of a huge space may hold millions
  // of boxes; the usual one a few hundred).
  ~FrontSearch();
  FrontSearch(const FrontSearch&) = delete;
  FrontSearch& operator=(const FrontSearch&) = delete;

  struct Outcome {
    bool finished;  // false: the search gave up, `allocation` means nothing
    std::optional<AdmissibleAllocation> allocation;
  };
  // Lexicographic minimum of (area, time, index) over the allocations with a finite time <= limit. `incumbent`, an
  // allocation known to qualify, only prunes; the answer is never worse than it. Empty when none qualifies.
  [[nodiscard]] Outcome least_area(double limit, std::optional<AdmissibleAllocation> incumbent);
  // Lexicographic minimum of (share, time, index) over the allocations with a finite time.
  [[nodiscard]] Outcome least_share();

  // Times read by this search so far.
  [[nodiscard]] std::size_t evaluations() const noexcept { return evaluations_; }

  struct Key {
    double primary;  // area or share
    double time;
    std::size_t index;
    friend bool operator<(const Key& a, const Key& b) noexcept {
      if (a.primary != b.primary) return a.primary < b.primary;
      if (a.time != b.time) return a.time < b.time;
      return a.index < b.index;
    }
  };
  struct Box {
    double low_time;   // t(lo), the box's longest time
    double high_time;  // t(hi), its shortest
    double low_share;  // share(lo), its least share
    std::size_t low_index;
  };
  struct Queued {
    Key bound;
    std::uint32_t box;
  };
  struct Buffers {
    std::vector<int> corners;  // per box: lo then hi
    std::vector<Box> boxes;
    std::vector<std::uint32_t> free_boxes;
    std::vector<Queued> queue;  // a heap, least bound on top
  };

 private:
  enum class Objective { area, share };

  Outcome search(Objective objective, double limit, std::optional<Key> best);
  [[nodiscard]] Key bound_of(Objective objective, const Box& box) const;
  [[nodiscard]] Key candidate_of(Objective objective, const Box& box) const;
  [[nodiscard]] double time_at(const int* alloc);
  [[nodiscard]] double share_of(const int* alloc) const;
  std::uint32_t new_box();
  int* low(std::uint32_t box) { return buffers_.corners.data() + static_cast<std::size_t>(box) * 2 * dimensions_; }
  int* high(std::uint32_t box) { return low(box) + dimensions_; }

  const AllocationSpace& space_;
  const TimeProfile& profile_;
  double fastest_time_;
  std::size_t dimensions_;
  std::size_t max_evaluations_;
  Buffers& buffers_;
  std::size_t evaluations_ = 0;
};

}  // namespace cosched::sched::detail
