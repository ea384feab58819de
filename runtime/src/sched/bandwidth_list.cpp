#include "sched/bandwidth_list.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "cosched/common/constants.hpp"
#include "cosched/sched/rigid.hpp"
#include "sched/two_phase.hpp"

namespace cosched::sched {

namespace {

using detail::Approach;
using detail::TwoPhaseAlgorithm;

constexpr std::size_t kMaxPlanningVectors = std::size_t{1} << 22;

bool has_traffic(const Instance& instance) {
  if (instance.bandwidth().empty()) return false;
  return std::any_of(instance.tasks().begin(), instance.tasks().end(),
                     [](const Task& task) { return task.traffic != nullptr; });
}

// C_q: what pool q delivers at best, or the largest demand any task has alone at any allocation.
std::vector<double> planning_capacities(const Instance& instance) {
  const BandwidthModel& model = instance.bandwidth();
  std::vector<double> capacity(model.pools.size());
  for (std::size_t q = 0; q < capacity.size(); ++q) capacity[q] = model.peak(q);
  std::vector<double> times(instance.space().size());
  for (const Task& task : instance.tasks()) {
    if (task.traffic == nullptr) continue;
    task.profile->fill_times(instance.space(), times);
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (!(times[k] > 0.0) || std::isinf(times[k])) continue;
      for (std::size_t q = 0; q < capacity.size(); ++q) {
        capacity[q] = std::max(capacity[q], (*task.traffic)[q][k] / times[k]);
      }
    }
  }
  return capacity;
}

Schedule project(const Instance& instance, const Schedule& planned, std::string_view name) {
  Schedule result;
  result.algorithm = std::string(name);
  result.allocation_bound = planned.allocation_bound;
  result.tasks.resize(instance.task_count());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    ScheduledTask& task = result.tasks[j];
    const ScheduledTask& source = planned.tasks[j];
    task.alloc.assign(source.alloc.begin(), source.alloc.begin() + static_cast<std::ptrdiff_t>(instance.dimensions()));
    task.start = source.start;
    task.duration = instance.time(j, task.alloc);  // <= source.duration: the interval only shrinks
    task.pack = source.pack;
  }
  result.makespan = completion_time(result.tasks);
  return result;
}

const TwoPhaseAlgorithm& list_lpt() {
  static const TwoPhaseAlgorithm algorithm("d-list-lpt", Approach::direct, [](const RigidTasks& tasks) {
    return list_schedule(tasks, ListOrder::longest_first);
  });
  return algorithm;
}

}  // namespace

int bandwidth_units(const Instance& instance) {
  const std::size_t pools = instance.bandwidth().pools.size();
  int units = 20;
  const auto vectors = [&](int u) {
    double size = static_cast<double>(instance.space().size());
    for (std::size_t q = 0; q < pools; ++q) size *= u + 1;
    return size;
  };
  while (units > 1 && vectors(units) > static_cast<double>(kMaxPlanningVectors)) --units;
  return units;
}

Instance with_bandwidth_resources(const Instance& instance, int units) {
  const std::size_t d = instance.dimensions();
  const std::size_t pools = instance.bandwidth().pools.size();
  std::vector<Resource> resources = instance.resources();
  for (const auto& pool : instance.bandwidth().pools) resources.push_back({"bandwidth_" + pool.name, units});
  const AllocationSpace space(capacities_of(resources));
  const std::vector<double> capacity = planning_capacities(instance);
  std::vector<double> unit_bytes_per_s(pools);
  for (std::size_t q = 0; q < pools; ++q) unit_bytes_per_s[q] = capacity[q] / units;

  // Tasks of one kind share their time and traffic tables (the instance builder shares them per kernel, footprint
  // and passes): one planning table per distinct pair, not one per task.
  std::map<std::pair<const TimeProfile*, const TrafficTable*>, std::shared_ptr<const DenseTimeTable>> tables;
  std::vector<Task> tasks;
  tasks.reserve(instance.task_count());
  std::vector<int> alloc(space.dimensions());
  std::vector<double> base(instance.space().size());
  for (const Task& task : instance.tasks()) {
    auto [entry, fresh] = tables.try_emplace({task.profile.get(), task.traffic.get()});
    if (fresh) {
      task.profile->fill_times(instance.space(), base);
      std::vector<double> times(space.size());
      for (std::size_t index = 0; index < space.size(); ++index) {
        space.decode(index, alloc);
        const std::size_t original = instance.space().index_of(std::span<const int>(alloc.data(), d));
        double t = base[original];
        for (std::size_t q = 0; q < pools && task.traffic != nullptr && !std::isinf(t); ++q) {
          const double bytes = (*task.traffic)[q][original];
          if (bytes <= 0.0) continue;
          const int granted = alloc[d + q];
          t = granted == 0 ? kInfinity : std::max(t, bytes / (granted * unit_bytes_per_s[q]));
        }
        times[index] = t;
      }
      entry->second = std::make_shared<DenseTimeTable>(space, std::move(times));
    }
    tasks.push_back({task.id, entry->second, task.attributes});
  }
  return Instance(std::move(resources), std::move(tasks), instance.attributes());
}

namespace detail {

Schedule BandwidthListAlgorithm::schedule(const Instance& instance) const {
  if (!has_traffic(instance)) {
    Schedule plain = list_lpt().schedule(instance);
    plain.algorithm = std::string(name());
    return plain;
  }
  const Instance planning = with_bandwidth_resources(instance, bandwidth_units(instance));
  return project(instance, list_lpt().schedule(planning), name());
}

}  // namespace detail

}  // namespace cosched::sched
