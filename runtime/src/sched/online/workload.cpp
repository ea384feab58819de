#include "cosched/sched/online/workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/common/error.hpp"

namespace cosched::sched::online {

StretchReference stretch_reference(const Instance& instance, std::size_t task) {
  const AllocationSpace& space = instance.space();
  std::vector<int> alloc(space.dimensions(), 0);
  alloc[0] = 1;
  const double sequential = instance.time(task, alloc);
  if (std::isfinite(sequential)) return {space.index_of(alloc), sequential};
  // A rigid job: the least-area allocation it can run with (ties: the shorter, then the first).
  StretchReference best{0, std::numeric_limits<double>::infinity()};
  double best_area = std::numeric_limits<double>::infinity();
  std::vector<double> times(space.size());
  instance.tasks()[task].profile->fill_times(space, times);
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k])) continue;
    space.decode(k, alloc);
    const double a = area(space, alloc, times[k]);
    if (a < best_area || (a == best_area && times[k] < best.time)) {
      best_area = a;
      best = {k, times[k]};
    }
  }
  return best;
}

OnlineWorkload make_online_workload(std::string name, std::string source, Instance instance,
                                    std::vector<JobArrival> arrivals) {
  if (arrivals.size() != instance.task_count()) {
    throw InputError(source, fmt::format("{} arrivals for {} jobs", arrivals.size(), instance.task_count()));
  }
  OnlineWorkload workload{std::move(name), std::move(source), std::move(instance), std::move(arrivals), {}, {}};
  const std::size_t n = workload.arrivals.size();
  workload.reference_time.resize(n);
  workload.reference_alloc.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    const JobArrival& arrival = workload.arrivals[j];
    const std::string& id = workload.instance.tasks()[j].id;
    if (!std::isfinite(arrival.release) || arrival.release < 0.0) {
      throw InputError(workload.source, fmt::format("job {}: release {} is not a finite time >= 0", id, arrival.release));
    }
    if (arrival.estimate && (!std::isfinite(*arrival.estimate) || *arrival.estimate <= 0.0)) {
      throw InputError(workload.source, fmt::format("job {}: estimate {} is not a finite time > 0", id, *arrival.estimate));
    }
    const StretchReference reference = stretch_reference(workload.instance, j);
    if (!std::isfinite(reference.time) || reference.time <= 0.0) {
      throw InputError(workload.source,
                       fmt::format("job {}: no allocation with a finite, positive time (reference time {})", id,
                                   reference.time));
    }
    workload.reference_time[j] = reference.time;
    workload.reference_alloc[j] = reference.alloc;
  }
  return workload;
}

double workload_load(const OnlineWorkload& workload) {
  if (workload.arrivals.empty()) return 0.0;
  const auto [first, last] = std::minmax_element(workload.arrivals.begin(), workload.arrivals.end(),
                                                 [](const JobArrival& a, const JobArrival& b) { return a.release < b.release; });
  const double span = last->release - first->release;
  if (span <= 0.0) return 0.0;
  double work = 0.0;
  for (double t : workload.reference_time) work += t;
  return work / span;
}

}  // namespace cosched::sched::online
