#include "online/policies/reference_jobs.hpp"

namespace cosched::online::policies {

ReferenceJobs::ReferenceJobs(const OnlineWorkload& workload)
    : workload_(&workload), dimensions_(workload.instance.dimensions()) {
  const sched::AllocationSpace& space = workload.instance.space();
  demands_.resize(workload.reference_alloc.size() * dimensions_);
  for (std::size_t job = 0; job < workload.reference_alloc.size(); ++job) {
    space.decode(workload.reference_alloc[job], {demands_.data() + job * dimensions_, dimensions_});
  }
}

Placement ReferenceJobs::placement(std::size_t job, double start) const {
  const std::span<const int> alloc = demand(job);
  return {job, std::vector<int>(alloc.begin(), alloc.end()), start, start + time(job)};
}

std::vector<int> capacity_of(const OnlineState& state) {
  std::vector<int> capacity(state.free.begin(), state.free.end());
  for (const RunningJob& running : state.running) give_back(capacity, running.alloc);
  return capacity;
}

}  // namespace cosched::online::policies
