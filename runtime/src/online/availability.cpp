#include "cosched/online/availability.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace cosched::online {

AvailabilityProfile::AvailabilityProfile(double origin, std::vector<int> capacities)
    : capacities_(std::move(capacities)), times_{origin}, free_(capacities_) {}

AvailabilityProfile AvailabilityProfile::from_releases(double origin, std::vector<int> capacities,
                                                       std::vector<int> free_now, std::vector<Release> releases) {
  assert(free_now.size() == capacities.size());
  AvailabilityProfile profile(origin, std::move(capacities));
  const std::size_t d = profile.capacities_.size();
  std::sort(releases.begin(), releases.end(), [](const Release& a, const Release& b) { return a.time < b.time; });
  profile.free_ = std::move(free_now);
  profile.free_.reserve((releases.size() + 1) * d);
  for (const Release& release : releases) {
    assert(release.time > origin && release.amounts.size() == d);
    if (release.time != profile.times_.back()) {
      profile.times_.push_back(release.time);
      const std::size_t previous = profile.free_.size() - d;  // the new segment starts like the last one
      profile.free_.resize(previous + 2 * d);
      std::copy_n(profile.free_.begin() + static_cast<std::ptrdiff_t>(previous), d,
                  profile.free_.begin() + static_cast<std::ptrdiff_t>(previous + d));
    }
    int* row = profile.free_.data() + (profile.times_.size() - 1) * d;
    for (std::size_t i = 0; i < d; ++i) {
      row[i] += release.amounts[i];
      assert(row[i] <= profile.capacities_[i]);
    }
  }
  return profile;
}

std::size_t AvailabilityProfile::segment_of(double t) const {
  assert(t >= times_.front());
  const auto after = std::upper_bound(times_.begin(), times_.end(), t);
  return static_cast<std::size_t>(after - times_.begin()) - 1;
}

std::size_t AvailabilityProfile::split_at(double t) {
  const std::size_t segment = segment_of(t);
  if (times_[segment] == t) return segment;
  const std::size_t d = capacities_.size();
  times_.insert(times_.begin() + static_cast<std::ptrdiff_t>(segment + 1), t);
  // The new segment starts with the free amounts of the one it splits (copied in place: no temporary, this runs
  // for every reservation of every trial of the online policies).
  const auto next_row = free_.begin() + static_cast<std::ptrdiff_t>((segment + 1) * d);
  free_.insert(next_row, d, 0);
  std::copy_n(free_.begin() + static_cast<std::ptrdiff_t>(segment * d), d,
              free_.begin() + static_cast<std::ptrdiff_t>((segment + 1) * d));
  return segment + 1;
}

bool AvailabilityProfile::fits(std::size_t segment, std::span<const int> amounts) const {
  const int* row = free_.data() + segment * capacities_.size();
  for (std::size_t i = 0; i < amounts.size(); ++i) {
    if (amounts[i] > row[i]) return false;
  }
  return true;
}

void AvailabilityProfile::reserve(double start, double end, std::span<const int> amounts) {
  assert(amounts.size() == capacities_.size() && start >= times_.front() && end > start);
  const std::size_t first = split_at(start);
  const std::size_t stop = std::isinf(end) ? times_.size() : split_at(end);
  const std::size_t d = capacities_.size();
  for (std::size_t segment = first; segment < stop; ++segment) {
    for (std::size_t i = 0; i < d; ++i) {
      free_[segment * d + i] -= amounts[i];
      assert(free_[segment * d + i] >= 0);
    }
  }
}

void AvailabilityProfile::hold_until(double end, std::span<const int> amounts) {
  if (end > times_.front()) reserve(times_.front(), end, amounts);
}

double AvailabilityProfile::earliest_fit(double from, double duration, std::span<const int> amounts) const {
  return earliest_fit(from, duration, amounts, std::numeric_limits<double>::infinity());
}

double AvailabilityProfile::earliest_fit(double from, double duration, std::span<const int> amounts,
                                         double latest_start) const {
  assert(amounts.size() == capacities_.size() && duration >= 0.0);
  from = std::max(from, times_.front());
  for (std::size_t i = 0; i < amounts.size(); ++i) {
    if (amounts[i] > capacities_[i]) return std::numeric_limits<double>::infinity();
  }
  // Two pointers: `candidate` is the earliest start not yet ruled out; walk the segments it would cover, and on a
  // segment where the amounts do not fit, restart just after it.
  double candidate = from;
  for (std::size_t segment = segment_of(from); segment < times_.size(); ++segment) {
    if (candidate > latest_start) return std::numeric_limits<double>::infinity();
    if (!fits(segment, amounts)) {
      if (segment + 1 == times_.size()) return std::numeric_limits<double>::infinity();
      candidate = times_[segment + 1];
      continue;
    }
    const double segment_end =
        segment + 1 < times_.size() ? times_[segment + 1] : std::numeric_limits<double>::infinity();
    if (segment_end >= candidate + duration) return candidate;
  }
  return std::numeric_limits<double>::infinity();
}

std::span<const int> AvailabilityProfile::free_at(double t) const { return free_of(segment_of(t)); }

}  // namespace cosched::online
