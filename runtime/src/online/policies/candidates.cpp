// Candidate allocations of the moldable policies (cost order) and the running jobs' availability profile.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "cosched/online/moldable.hpp"

namespace cosched::online {

CandidateList::CandidateList(const sched::AllocationSpace& space, std::span<const sched::AdmissibleAllocation> admissible)
    : dimensions_(space.dimensions()) {
  assert(!admissible.empty());
  const std::size_t count = admissible.size();
  times_.reserve(count);
  areas_.reserve(count);
  shares_.reserve(count);
  amounts_.resize(count * dimensions_);
  // The scanner lists time increasing / area decreasing; cost order is the reverse.
  for (std::size_t k = 0; k < count; ++k) {
    const sched::AdmissibleAllocation& allocation = admissible[count - 1 - k];
    times_.push_back(allocation.time);
    areas_.push_back(allocation.area);
    const std::span<int> amounts(amounts_.data() + k * dimensions_, dimensions_);
    space.decode(allocation.index, amounts);
    shares_.push_back(space.share_sum(amounts));
  }
  find_steepest_steps();
}

Placement CandidateList::placement(std::size_t job, std::size_t k, double start) const {
  const std::span<const int> amounts = alloc(k);
  return {job, std::vector<int>(amounts.begin(), amounts.end()), start, start + times_[k]};
}

std::size_t CandidateList::first_within(double budget) const {
  const auto first = std::partition_point(times_.begin(), times_.end(), [budget](double t) { return t > budget; });
  return static_cast<std::size_t>(first - times_.begin());
}

// The steepest step from x is the point k > x of least slope from (share_x, t_x): the tangent from x to the lower
// convex hull of the points right of it. Built from the right like a monotone-chain hull, O(size) in all: a point
// that another one further right beats from x lies above the hull of x and everything right of it, so it is
// dropped for good; collinear points stay, so ties go to the nearer one.
void CandidateList::find_steepest_steps() {
  steepest_.assign(size(), size());
  std::vector<std::size_t> hull;  // back(): the leftmost point
  for (std::size_t x = size(); x-- > 0;) {
    while (hull.size() >= 2 && step_rate(x, hull[hull.size() - 2]) > step_rate(x, hull.back())) hull.pop_back();
    if (!hull.empty()) steepest_[x] = hull.back();
    hull.push_back(x);
  }
}

CandidateCache::CandidateCache(const OnlineWorkload& workload)
    : workload_(workload), lists_(workload.instance.task_count()), keep_(workload.instance.task_count(), 0) {}

const CandidateList& CandidateCache::of(std::size_t job) {
  assert(job < lists_.size());
  if (!lists_[job]) {
    const sched::Instance& instance = workload_.instance;
    scanner_.scan(instance.space(), *instance.tasks()[job].profile, admissible_);
    // make_online_workload refused jobs without a finite time, so the list is never empty.
    lists_[job] = std::make_unique<const CandidateList>(instance.space(), admissible_);
    live_.push_back(job);
  }
  return *lists_[job];
}

void CandidateCache::retain(std::span<const std::size_t> pending) {
  for (std::size_t job : pending) keep_[job] = 1;
  std::erase_if(live_, [this](std::size_t job) {
    if (keep_[job]) return false;
    lists_[job].reset();
    return true;
  });
  for (std::size_t job : pending) keep_[job] = 0;
}

AvailabilityProfile running_profile(const OnlineState& state) {
  const std::vector<int> capacities = state.workload.instance.space().capacities();
  const double just_after_now = std::nextafter(state.now, std::numeric_limits<double>::infinity());
  std::vector<AvailabilityProfile::Release> releases;
  releases.reserve(state.running.size());
  for (const RunningJob& job : state.running) {
    releases.push_back({std::max(job.expected_end, just_after_now), job.alloc});
  }
  return AvailabilityProfile::from_releases(state.now, capacities, std::vector<int>(state.free.begin(), state.free.end()),
                                            std::move(releases));
}

}  // namespace cosched::online
