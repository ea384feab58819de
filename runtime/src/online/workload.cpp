#include "cosched/online/workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <utility>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/compensated_sum.hpp"
#include "cosched/sched/rows.hpp"

namespace cosched::online {

namespace {

// The least-area finite allocation of a task, scanning its whole table (`buffer` is reused between tasks): a rigid
// job's only way to run. Areas are share_sum(p) * t(p) with share_sum folded left as AllocationSpace does, so they
// agree bit for bit with every other area of the library. Ties: the smaller time, then the smaller index (the scan
// order).
std::optional<StretchReference> least_area_allocation(const sched::Instance& instance, std::size_t task,
                                                      std::vector<double>& buffer) {
  const sched::AllocationSpace& space = instance.space();
  buffer.resize(space.size());
  instance.tasks()[task].profile->fill_times(space, buffer);
  const int last_capacity = space.capacity(space.dimensions() - 1);
  std::optional<StretchReference> best;
  double best_area = std::numeric_limits<double>::infinity();
  for (sched::RowWalker row(space); row.valid(); row.advance()) {
    for (int k = 0; k <= last_capacity; ++k) {
      const std::size_t index = row.base() + static_cast<std::size_t>(k);
      const double time = buffer[index];
      if (std::isinf(time)) continue;
      const double area = (row.outer_share() + space.share(space.dimensions() - 1, k)) * time;
      if (!best || area < best_area || (area == best_area && time < best->time)) {
        best = StretchReference{index, time};
        best_area = area;
      }
    }
  }
  return best;
}

// The rule of workload.hpp: one unit of the first resource alone when that time is finite (a lookup, no scan),
// else the least-area finite allocation. `unit` is that allocation and `unit_index` its index (computed once for a
// whole workload).
std::optional<StretchReference> find_reference(const sched::Instance& instance, std::size_t task, std::span<const int> unit,
                                               std::size_t unit_index, std::vector<double>& buffer) {
  const double time = instance.time(task, unit);
  if (!std::isinf(time)) return StretchReference{unit_index, time};
  return least_area_allocation(instance, task, buffer);
}

std::vector<int> unit_allocation(const sched::Instance& instance) {
  std::vector<int> unit(instance.dimensions(), 0);
  unit[0] = 1;
  return unit;
}

std::string job_where(const std::string& source, const sched::Instance& instance, std::size_t job) {
  return fmt::format("{}: job \"{}\"", source, instance.tasks()[job].id);
}

}  // namespace

StretchReference stretch_reference(const sched::Instance& instance, std::size_t task) {
  std::vector<double> buffer;
  const std::vector<int> unit = unit_allocation(instance);
  const auto reference = find_reference(instance, task, unit, instance.space().index_of(unit), buffer);
  if (!reference) {
    throw InputError(fmt::format("task \"{}\"", instance.tasks()[task].id), "no allocation has a finite time");
  }
  return *reference;
}

OnlineWorkload make_online_workload(std::string name, std::string source, sched::Instance instance,
                                    std::vector<JobArrival> arrivals) {
  const std::size_t jobs = instance.task_count();
  if (jobs == 0) throw InputError(source, "the workload has no jobs");
  if (arrivals.size() != jobs) {
    throw InputError(source, fmt::format("{} arrivals for {} jobs", arrivals.size(), jobs));
  }
  OnlineWorkload workload{std::move(name), std::move(source), std::move(instance), std::move(arrivals), {}, {}};
  workload.reference_time.reserve(jobs);
  workload.reference_alloc.reserve(jobs);
  std::vector<double> buffer;
  const std::vector<int> unit = unit_allocation(workload.instance);
  const std::size_t unit_index = workload.instance.space().index_of(unit);
  for (std::size_t j = 0; j < jobs; ++j) {
    JobArrival& arrival = workload.arrivals[j];
    // Named only when something is wrong: formatting it for each of a million jobs would cost more than the checks.
    const auto where = [&] { return job_where(workload.source, workload.instance, j); };
    arrival.release = checked_number(arrival.release, non_negative_up_to(kMaxSeconds), where, "the release time");
    arrival.release += 0.0;  // -0.0 -> +0.0
    if (arrival.estimate) (void)checked_number(*arrival.estimate, positive_up_to(kMaxSeconds), where, "the estimate");
    if (!arrival.user.empty() && !is_safe_identifier(arrival.user)) check_identifier(arrival.user, where() + ": user");
    if (!arrival.campaign.empty() && !is_safe_identifier(arrival.campaign)) {
      check_identifier(arrival.campaign, where() + ": campaign");
    }
    if (arrival.logged_end) {
      (void)checked_number(*arrival.logged_end, non_negative_up_to(2 * kMaxSeconds), where, "the logged end");
      if (*arrival.logged_end < arrival.release) {
        throw InputError(where(), fmt::format("the logged end {} is before the release {}", *arrival.logged_end,
                                              arrival.release));
      }
    }
    if (arrival.logged_start) {
      const double latest = arrival.logged_end ? *arrival.logged_end : 2 * kMaxSeconds;
      (void)checked_number(*arrival.logged_start, non_negative_up_to(latest), where, "the logged start");
      if (*arrival.logged_start < arrival.release) {
        throw InputError(where(), fmt::format("the logged start {} is before the release {}", *arrival.logged_start,
                                              arrival.release));
      }
    }
    const auto reference = find_reference(workload.instance, j, unit, unit_index, buffer);
    if (!reference) throw InputError(where(), "no allocation has a finite time: the job can never run");
    if (reference->time <= 0.0) {
      throw InputError(where(), "its time at its reference allocation is 0: its stretch would divide by 0");
    }
    workload.reference_time.push_back(reference->time);
    workload.reference_alloc.push_back(reference->alloc);
  }
  return workload;
}

OnlineWorkload online_workload_from_instance(sched::Instance instance, const std::string& source) {
  std::vector<JobArrival> arrivals(instance.task_count());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    const nlohmann::json& attributes = instance.tasks()[j].attributes;
    if (attributes.is_null()) continue;  // no attributes (model.hpp): released at 0, no user, no campaign
    const std::string where = job_where(source, instance, j);
    if (const auto* release = find_json_member(attributes, "release_s", where)) {
      arrivals[j].release = json_to_number(*release, non_negative_up_to(kMaxSeconds), where, "\"release_s\"");
    }
    if (const auto* user = find_json_member(attributes, "user", where)) {
      arrivals[j].user = json_to_string(*user, where, "\"user\"");
      check_identifier(arrivals[j].user, where + ": \"user\"");
    }
    if (const auto* campaign = find_json_member(attributes, "campaign", where)) {
      arrivals[j].campaign = json_to_string(*campaign, where, "\"campaign\"");
      check_identifier(arrivals[j].campaign, where + ": \"campaign\"");
    }
  }
  const auto* workload_name = find_json_member(instance.attributes(), "workload", source);
  std::string name = workload_name != nullptr && workload_name->is_string()
                         ? workload_name->get<std::string>()
                         : std::filesystem::path(source).stem().string();
  return make_online_workload(std::move(name), source, std::move(instance), std::move(arrivals));
}

double workload_load(const OnlineWorkload& workload) {
  if (workload.arrivals.empty()) return 0.0;
  const auto [first, last] = std::minmax_element(
      workload.arrivals.begin(), workload.arrivals.end(),
      [](const JobArrival& a, const JobArrival& b) { return a.release < b.release; });
  const double span = last->release - first->release;
  if (!(span > 0.0)) return 0.0;
  CompensatedSum total;
  for (const double time : workload.reference_time) total.add(time);
  return total.value() / span;
}

}  // namespace cosched::online
