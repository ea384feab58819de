#include <algorithm>

#include "cosched/online/workload.hpp"

namespace cosched::online {

OnlineWorkload remaining_jobs(const OnlineWorkload& workload, const std::vector<std::size_t>& keep, double shift) {
  std::vector<sched::Task> tasks;
  std::vector<JobArrival> arrivals;
  tasks.reserve(keep.size());
  arrivals.reserve(keep.size());
  for (std::size_t job : keep) {
    tasks.push_back(workload.instance.tasks()[job]);
    JobArrival arrival = workload.arrivals[job];
    arrival.release = std::max(0.0, arrival.release - shift);
    if (arrival.logged_end) arrival.logged_end = std::max(arrival.release, *arrival.logged_end - shift);
    if (arrival.logged_start) arrival.logged_start = std::max(arrival.release, *arrival.logged_start - shift);
    arrivals.push_back(std::move(arrival));
  }
  sched::Instance instance(workload.instance.resources(), std::move(tasks), workload.instance.attributes(),
                    workload.instance.bandwidth());
  // Nothing left (a resumed run that had completed): an empty workload, which make_online_workload refuses as an
  // input but which is what remains here.
  if (keep.empty()) return OnlineWorkload{workload.name, workload.source, std::move(instance), {}, {}, {}};
  return make_online_workload(workload.name, workload.source, std::move(instance), std::move(arrivals));
}

}  // namespace cosched::online
