#pragma once
// What the sequential-job policies of seed 000 (fcfs, easy, conservative, dasedf, the reservation scheme, split)
// know of a job: it always runs at its reference allocation (OnlineWorkload::reference_alloc: one processor for
// sequential and moldable jobs, the logged count for rigid ones) for its reference time. The allocations are
// decoded once per policy, so re-planning never touches the allocation space.
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "cosched/online/policy.hpp"

namespace cosched::online::policies {

class ReferenceJobs {
 public:
  explicit ReferenceJobs(const OnlineWorkload& workload);

  [[nodiscard]] const OnlineWorkload& workload() const noexcept { return *workload_; }
  [[nodiscard]] std::size_t dimensions() const noexcept { return dimensions_; }
  [[nodiscard]] std::size_t size() const noexcept { return workload_->reference_time.size(); }
  [[nodiscard]] std::span<const int> demand(std::size_t job) const {
    return {demands_.data() + job * dimensions_, dimensions_};
  }
  [[nodiscard]] double time(std::size_t job) const { return workload_->reference_time[job]; }
  // What backfilling plans with: the user's estimate when the job has one, else its time.
  [[nodiscard]] double estimate(std::size_t job) const {
    const auto& estimate = workload_->arrivals[job].estimate;
    return estimate ? *estimate : time(job);
  }
  // `job` at its reference allocation from `start` for its time.
  [[nodiscard]] Placement placement(std::size_t job, double start) const;

 private:
  const OnlineWorkload* workload_;
  std::size_t dimensions_;
  std::vector<int> demands_;  // jobs x resources, row-major
};

[[nodiscard]] inline bool fits(std::span<const int> demand, std::span<const int> free) {
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (demand[i] > free[i]) return false;
  }
  return true;
}
inline void take(std::span<int> free, std::span<const int> demand) {
  for (std::size_t i = 0; i < demand.size(); ++i) free[i] -= demand[i];
}
inline void give_back(std::span<int> free, std::span<const int> demand) {
  for (std::size_t i = 0; i < demand.size(); ++i) free[i] += demand[i];
}

// When a running job's resources are free again as a plan sees them: `end` (its expected end, or start + estimate
// for backfilling) but strictly after now. A job still listed as running holds its resources at `now` even when it
// is late or ends at this very instant (a simultaneous completion not processed yet): nothing may start on them now.
[[nodiscard]] inline double freed_at(double end, double now) {
  return end > now ? end : std::nextafter(now, std::numeric_limits<double>::infinity());
}

// The capacity a state describes: its free amounts plus what its running jobs hold.
[[nodiscard]] std::vector<int> capacity_of(const OnlineState& state);

}  // namespace cosched::online::policies
