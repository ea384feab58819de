// The baselines of seed 001, Sec. 4.1: Gang, Sequential (LPTF) and list scheduling with the dual approximation's
// allotment in three orders (MRT shelves, weighted LPTF, smallest area first).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/rigid.hpp"
#include "sched/bicriteria/algorithms.hpp"

namespace cosched::sched::detail {

namespace {

std::vector<std::size_t> identity(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

// The message RA_d gives for a task that cannot run at all, so every algorithm refuses it the same way.
double finite_time(const Instance& instance, std::size_t task, double time) {
  if (!std::isfinite(time)) {
    throw InputError("task \"" + instance.tasks()[task].id + "\"",
                     "cannot run with any allocation (every execution time is infinite)");
  }
  return time;
}

}  // namespace

double allocation_bound(const Instance& instance, const AllottedList& list) {
  return sched::allocation_bound(instance, list.allocation, list.time);
}

namespace {

// Each task's smallest allocation it can run with: the least sum_i p_i/P(i) with a finite time (1 processor for
// d = 1), ties to the shorter time, then the lower index (ParetoFront::least_share). "Sequential" on d resources.
AllottedList smallest_allocations(const Instance& instance) {
  AllottedList list;
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    const std::optional<AdmissibleAllocation> smallest =
        instance.tasks()[j].profile->front(instance.space())->least_share();
    list.allocation.push_back(smallest ? smallest->index : instance.space().size() - 1);
    list.time.push_back(finite_time(instance, j, smallest ? smallest->time : std::numeric_limits<double>::infinity()));
  }
  return list;
}

// RA_d(d)'s allocation: the canonical allotment at the dual approximation's estimate L_min(d).
AllottedList canonical_allocations(const Instance& instance) {
  const ResourceAllocation allocation = allocate_resources(instance, static_cast<double>(instance.dimensions()));
  AllottedList list;
  list.allocation = allocation.allocation;
  list.time = allocation.time;
  list.allocation_bound = allocation.bound;
  return list;
}

template <typename Before>
void sort_list(AllottedList& list, Before before) {
  list.order = identity(list.time.size());
  std::stable_sort(list.order.begin(), list.order.end(), before);
}

}  // namespace

Schedule schedule_allotted_list(const Instance& instance, const std::string& name, const AllottedList& list) {
  const std::size_t d = instance.dimensions();
  RigidTasks rigid;
  rigid.capacities = instance.space().capacities();
  rigid.duration = list.time;
  rigid.demand.resize(instance.task_count() * d);
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    instance.space().decode(list.allocation[j], std::span<int>(rigid.demand.data() + j * d, d));
  }
  const RigidSchedule placed = list_schedule(rigid, list.order);
  Schedule schedule;
  schedule.algorithm = name;
  schedule.allocation_bound = list.allocation_bound;
  schedule.tasks.resize(instance.task_count());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    auto& task = schedule.tasks[j];
    const auto demand = rigid.demand.begin() + static_cast<std::ptrdiff_t>(j * d);
    task.alloc.assign(demand, demand + static_cast<std::ptrdiff_t>(d));
    task.start = placed.start[j];
    task.duration = list.time[j];
  }
  schedule.makespan = completion_time(schedule.tasks);
  return schedule;
}

Schedule AllottedListAlgorithm::schedule(const Instance& instance) const {
  return schedule_allotted_list(instance, name_, decide_(instance));
}

// Every task on every resource, one after the other by Smith's ratio w_j / t_j (optimal for linear speedups).
AllottedList gang_list(const Instance& instance) {
  AllottedList list;
  const std::size_t everything = instance.space().size() - 1;
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    list.allocation.push_back(everything);
    const double time = instance.tasks()[j].profile->time_at(instance.space(), instance.space().decode(everything));
    list.time.push_back(finite_time(instance, j, time));
  }
  sort_list(list, [&](std::size_t a, std::size_t b) {
    return instance.tasks()[a].weight * list.time[b] > instance.tasks()[b].weight * list.time[a];
  });
  list.allocation_bound = allocation_bound(instance, list);
  return list;
}

// Every task on its smallest allocation, longest first.
AllottedList sequential_lptf_list(const Instance& instance) {
  AllottedList list = smallest_allocations(instance);
  sort_list(list, [&](std::size_t a, std::size_t b) { return list.time[a] > list.time[b]; });
  list.allocation_bound = allocation_bound(instance, list);
  return list;
}

// The dual approximation's order: the tasks longer than half the estimate (MRT's first shelf), then the other
// tasks on more than their smallest allocation (the second shelf), then the small sequential ones; longest first
// within each group.
AllottedList list_mrt_list(const Instance& instance) {
  AllottedList list = canonical_allocations(instance);
  const AllottedList smallest = smallest_allocations(instance);
  const double half = list.allocation_bound / 2;
  std::vector<int> shelf(list.time.size());
  for (std::size_t j = 0; j < shelf.size(); ++j) {
    shelf[j] = list.time[j] > half ? 0 : (list.allocation[j] != smallest.allocation[j] ? 1 : 2);
  }
  sort_list(list, [&](std::size_t a, std::size_t b) {
    return shelf[a] != shelf[b] ? shelf[a] < shelf[b] : list.time[a] > list.time[b];
  });
  return list;
}

// Weighted largest processing time first: decreasing t_j / w_j (the reading that keeps "LPTF" for C_max).
AllottedList list_wlptf_list(const Instance& instance) {
  AllottedList list = canonical_allocations(instance);
  sort_list(list, [&](std::size_t a, std::size_t b) {
    return list.time[a] * instance.tasks()[b].weight > list.time[b] * instance.tasks()[a].weight;
  });
  return list;
}

// Smallest (normalised) area first.
AllottedList list_saf_list(const Instance& instance) {
  AllottedList list = canonical_allocations(instance);
  std::vector<double> areas(list.time.size());
  for (std::size_t j = 0; j < areas.size(); ++j) {
    areas[j] = area(instance.space(), instance.space().decode(list.allocation[j]), list.time[j]);
  }
  sort_list(list, [&](std::size_t a, std::size_t b) { return areas[a] < areas[b]; });
  return list;
}

}  // namespace cosched::sched::detail
