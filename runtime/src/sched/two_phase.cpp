#include "sched/two_phase.hpp"

#include <optional>

#include "cosched/sched/allocation.hpp"
#include "cosched/sched/transform.hpp"

namespace cosched::sched::detail {

namespace {

// Phase 2 input: the allocation matrix chosen by RA as demand vectors, with their (fixed) times.
RigidTasks rigid_tasks(const Instance& instance, const ResourceAllocation& allocation) {
  const std::size_t d = instance.dimensions();
  RigidTasks tasks;
  tasks.capacities = instance.space().capacities();
  tasks.demand.resize(instance.task_count() * d);
  tasks.duration = allocation.time;
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    instance.space().decode(allocation.allocation[j], std::span<int>(tasks.demand.data() + j * d, d));
  }
  return tasks;
}

}  // namespace

Schedule TwoPhaseAlgorithm::schedule(const Instance& instance) const {
  // Both approaches use s = d: RA_d(d) for Theorem 1, RA_1(d) for Theorem 2.
  const double s = static_cast<double>(instance.dimensions());
  const bool transform = approach_ == Approach::transform;
  // TF step 1 (transform-based only): the rigid problem is solved on I' and mapped back below.
  std::optional<Instance> transformed;
  if (transform) transformed.emplace(transform_to_single_resource(instance));
  const Instance& solved = transform ? *transformed : instance;
  const ResourceAllocation allocation = allocate_resources(solved, s);
  const RigidTasks tasks = rigid_tasks(solved, allocation);
  const RigidSchedule placed = rigid_(tasks);

  Schedule result;
  result.algorithm = name_;
  result.allocation_bound = allocation.bound;
  result.tasks.resize(instance.task_count());
  const std::size_t width = solved.dimensions();
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    auto& task = result.tasks[j];
    const auto demand = tasks.demand.begin() + static_cast<std::ptrdiff_t>(j * width);
    if (transform) {
      // TF step 3: same start, p_j = floor(q_j' P(i) / Q); t_j(p_j) = t_j'(q_j') by construction (Lemma 2).
      task.alloc = transform_back(instance.space().capacities(), *demand, solved.space().capacity(0));
    } else {
      task.alloc.assign(demand, demand + static_cast<std::ptrdiff_t>(width));
    }
    task.start = placed.start[j];
    task.duration = tasks.duration[j];
    task.pack = placed.pack.empty() ? -1 : placed.pack[j];
  }
  result.makespan = completion_time(result.tasks);
  return result;
}

}  // namespace cosched::sched::detail
