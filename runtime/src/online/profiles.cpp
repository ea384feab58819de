#include "cosched/online/profiles.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

#include "cosched/common/checked.hpp"

namespace cosched::online {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

double checked_time(double time, const char* where) {
  return checked_number(time, positive_up_to(kMaxSeconds), where, "the time");
}

}  // namespace

// The first resource varies slowest (row-major), so every allocation with n units of it is one contiguous block
// of stride(0) entries: one value per block.
template <class Derived>
void FirstResourceProfile<Derived>::fill_times(const sched::AllocationSpace& space, std::span<double> out) const {
  assert(out.size() == space.size());
  const auto& profile = static_cast<const Derived&>(*this);
  const std::size_t block = space.stride(0);
  for (int n = 0; n <= space.capacity(0); ++n) {
    std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(n) * block), block,
                profile.time_with(n));
  }
}

template <class Derived>
double FirstResourceProfile<Derived>::time_at([[maybe_unused]] const sched::AllocationSpace& space,
                                              std::span<const int> alloc) const {
  assert(space.contains(alloc));
  return static_cast<const Derived&>(*this).time_with(alloc[0]);
}

template class FirstResourceProfile<SequentialProfile>;
template class FirstResourceProfile<RigidProfile>;
template class FirstResourceProfile<DowneyProfile>;

SequentialProfile::SequentialProfile(double time) : time_(checked_time(time, "sequential job")) {}

double SequentialProfile::time_with(int processors) const noexcept { return processors >= 1 ? time_ : infinity; }

RigidProfile::RigidProfile(int procs, double time)
    : procs_(static_cast<int>(checked_count(procs, 1, sched::kMaxCapacity, "rigid job", "the processor count"))),
      time_(checked_time(time, "rigid job")) {}

double RigidProfile::time_with(int processors) const noexcept { return processors >= procs_ ? time_ : infinity; }

DowneyProfile::DowneyProfile(const DowneyJob& job) : job_(job) {
  // p_{i,1} = runtime x S(p) may exceed kMaxSeconds by the factor A; it only has to be a finite positive time.
  (void)checked_number(job.sequential_time, positive_up_to(std::numeric_limits<double>::max()), "Downey job",
                       "the sequential time");
  check_downey_parameters(job.parallelism, job.sigma, "Downey job");
}

double DowneyProfile::time_with(int processors) const noexcept {
  if (processors < 1) return infinity;
  return job_.sequential_time / downey_speedup(processors, job_.parallelism, job_.sigma);
}

}  // namespace cosched::online
