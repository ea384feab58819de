#pragma once
// The availability profile of the online policies: how much of each resource is free from `origin` on, as a step
// function of time, given the running jobs and the placements made so far. Holes are kept: a placement may go
// into a gap before later reservations (conservative backfilling, MoldableEDF line 15) — nothing placed is moved.
#include <cstddef>
#include <span>
#include <vector>

namespace cosched::online {

class AvailabilityProfile {
 public:
  // Everything free (`capacities`) from `origin` on.
  AvailabilityProfile(double origin, std::vector<int> capacities);

  // Running jobs ending: at `time`, `amounts` become free.
  struct Release {
    double time = 0.0;
    std::span<const int> amounts;
  };
  // `free_now` free at origin, each release adding its amounts at its time (> origin): the profile of the running
  // jobs in O(k log k), where k calls to hold_until cost O(k^2). Asserts it never exceeds the capacities.
  [[nodiscard]] static AvailabilityProfile from_releases(double origin, std::vector<int> capacities,
                                                         std::vector<int> free_now, std::vector<Release> releases);

  // Marks `amounts` busy on [start, end), start >= origin, end > start (end may be +inf). Asserts the amounts
  // are free there (callers ask earliest_fit first).
  void reserve(double start, double end, std::span<const int> amounts);
  // `amounts` busy from origin until `end`: a running job (end <= origin: nothing).
  void hold_until(double end, std::span<const int> amounts);

  // The earliest t >= from at which `amounts` are free during [t, t + duration); +inf when they never are
  // (amounts beyond capacity). duration may be 0.
  [[nodiscard]] double earliest_fit(double from, double duration, std::span<const int> amounts) const;
  // The same, but only starts t <= latest_start count (+inf when there is none): "can this allocation meet its
  // deadline" stops scanning at the deadline instead of walking the rest of the profile.
  [[nodiscard]] double earliest_fit(double from, double duration, std::span<const int> amounts,
                                    double latest_start) const;
  // Free amounts at time t (t >= origin).
  [[nodiscard]] std::span<const int> free_at(double t) const;

  [[nodiscard]] double origin() const noexcept { return times_.front(); }
  [[nodiscard]] std::size_t dimensions() const noexcept { return capacities_.size(); }
  [[nodiscard]] const std::vector<int>& capacities() const noexcept { return capacities_; }
  [[nodiscard]] std::size_t segments() const noexcept { return times_.size(); }

 private:
  // The segment containing t: the last k with times_[k] <= t.
  [[nodiscard]] std::size_t segment_of(double t) const;
  // Makes t a breakpoint (splitting its segment) and returns its segment index.
  std::size_t split_at(double t);
  [[nodiscard]] std::span<const int> free_of(std::size_t segment) const {
    return {free_.data() + segment * capacities_.size(), capacities_.size()};
  }
  [[nodiscard]] bool fits(std::size_t segment, std::span<const int> amounts) const;

  std::vector<int> capacities_;
  std::vector<double> times_;  // segment k is [times_[k], times_[k+1]), the last one [times_.back(), +inf)
  std::vector<int> free_;      // segments x resources, row-major
};

}  // namespace cosched::online
