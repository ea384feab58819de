#include "online/policies/partitioned.hpp"

#include <algorithm>
#include <cassert>

namespace cosched::online::policies {

std::vector<std::vector<int>> proportional_parts(const std::vector<int>& capacity,
                                                 const std::vector<int>& processors) {
  const std::size_t largest = static_cast<std::size_t>(
      std::max_element(processors.rbegin(), processors.rend()) - processors.rbegin());
  const std::size_t receiver = processors.size() - 1 - largest;
  std::vector<std::vector<int>> parts(processors.size(), std::vector<int>(capacity.size(), 0));
  for (std::size_t p = 0; p < processors.size(); ++p) parts[p][0] = processors[p];
  for (std::size_t r = 1; r < capacity.size(); ++r) {
    int left = capacity[r];
    for (std::size_t p = 0; p < processors.size(); ++p) {
      const auto share = static_cast<long long>(capacity[r]) * processors[p] / capacity[0];
      parts[p][r] = static_cast<int>(share);
      left -= parts[p][r];
    }
    parts[receiver][r] += left;
  }
  return parts;
}

PartitionedPolicy::PartitionedPolicy(std::string name, SharedJobs jobs,
                                     std::vector<std::vector<int>> part_capacities, const MakeCopy& make_copy)
    : name_(std::move(name)), jobs_(std::move(jobs)), part_of_(jobs_->size(), kUncommitted) {
  for (auto& capacity : part_capacities) parts_.push_back({std::move(capacity), make_copy(), {}, {}, 0, {}});
}

bool PartitionedPolicy::holds(std::size_t part, std::size_t job) const {
  return fits(jobs_->demand(job), parts_[part].capacity);
}

void PartitionedPolicy::released(std::size_t job, const OnlineState& state) {
  adopt_running(state);
  commit_if_needed(job, state);
}

void PartitionedPolicy::commit_if_needed(std::size_t job, const OnlineState& state) {
  if (part_of_[job] != kUncommitted) return;
  const std::size_t part = choose_part(job, state);
  assert(holds(part, job));
  part_of_[job] = part;
}

OnlineState PartitionedPolicy::view(Part& part, std::size_t index, const OnlineState& state) {
  part.pending.clear();
  for (const std::size_t job : state.pending) {
    if (part_of_[job] == index) part.pending.push_back(job);
  }
  part.free = part.capacity;
  part.running_count = 0;
  for (const RunningJob& running : state.running) {
    if (part_of_[running.job] != index) continue;
    if (part.running_count < part.running.size()) {
      part.running[part.running_count] = running;
    } else {
      part.running.push_back(running);
    }
    ++part.running_count;
    take(part.free, running.alloc);
  }
  return {state.workload, state.now, part.pending, {part.running.data(), part.running_count}, part.free,
          state.releases};
}

std::vector<Placement> PartitionedPolicy::plan_with(std::size_t part, std::size_t job, const OnlineState& state) {
  Part& target = parts_[part];
  OnlineState trial = view(target, part, state);
  // The job is the latest released: it goes last in release order (unless the state lists it already).
  if (std::find(target.pending.begin(), target.pending.end(), job) == target.pending.end()) {
    target.pending.push_back(job);
    trial.pending = target.pending;
  }
  return target.policy->plan(trial);
}

void PartitionedPolicy::adopt_running(const OnlineState& state) {
  const auto unknown = [this](const RunningJob& running) { return part_of_[running.job] == kUncommitted; };
  if (std::none_of(state.running.begin(), state.running.end(), unknown)) return;
  std::vector<std::vector<int>> room;
  for (const Part& part : parts_) room.push_back(part.capacity);
  for (const RunningJob& running : state.running) {
    if (!unknown(running)) take(room[part_of_[running.job]], running.alloc);
  }
  for (const RunningJob& running : state.running) {
    if (!unknown(running)) continue;
    std::size_t part = 0;
    while (part + 1 < parts_.size() && !fits(running.alloc, room[part])) ++part;
    part_of_[running.job] = part;
    take(room[part], running.alloc);
  }
}

std::vector<Placement> PartitionedPolicy::plan(const OnlineState& state) {
  adopt_running(state);
  // Jobs the engine did not announce (released() not called) are committed now, in release order.
  for (const std::size_t job : state.pending) commit_if_needed(job, state);
  std::vector<Placement> placements;
  for (std::size_t index = 0; index < parts_.size(); ++index) {
    Part& part = parts_[index];
    const OnlineState part_state = view(part, index, state);
    if (part.pending.empty()) continue;
    std::vector<Placement> part_plan = part.policy->plan(part_state);
    placements.insert(placements.end(), std::make_move_iterator(part_plan.begin()),
                      std::make_move_iterator(part_plan.end()));
  }
  return placements;
}

}  // namespace cosched::online::policies
