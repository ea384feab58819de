#include "sim/policies/online_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "sim/policies/fits.hpp"

namespace cosched::sim::policies {

OnlinePolicyAdapter::OnlinePolicyAdapter(std::unique_ptr<online::OnlinePolicy> policy,
                                         const LaunchPlan& plan)
    : policy_(std::move(policy)),
      workload_(*plan.online),
      releases_(plan.tasks.size(), 0.0),
      running_slot_(plan.tasks.size(), SIZE_MAX) {
  assert(plan.online && plan.online->instance.task_count() == plan.tasks.size());
}

online::OnlineState OnlinePolicyAdapter::state(const EngineView& view) {
  // A job running past its expected end (wall clock) ends "now" at the earliest, as far as planning goes.
  for (; !ends_.empty() && ends_.top().first < view.now; ends_.pop()) {
    if (running_slot_[ends_.top().second] != SIZE_MAX) late_.push_back(ends_.top().second);
  }
  for (const std::size_t job : late_) running_[running_slot_[job]].expected_end = view.now;
  return online::OnlineState{workload_, view.now, pending_, running_, view.available, releases_};
}

void OnlinePolicyAdapter::released(std::size_t task, const EngineView& view) {
  pending_.push_back(task);
  releases_[task] = view.runs[task].release;
  policy_->released(task, state(view));
}

void OnlinePolicyAdapter::started(std::size_t task, const TaskRun& run) {
  const auto found = std::find(pending_.begin(), pending_.end(), task);
  assert(found != pending_.end());
  pending_.erase(found);
  const double start = run.launch.start;
  const double end = start + online::job_time(workload_, task, run.grant.amounts);
  running_slot_[task] = running_.size();
  running_.push_back({task, run.grant.amounts, start, end});
  ends_.emplace(end, task);
}

void OnlinePolicyAdapter::ended(std::size_t task, const TaskRun& /*run*/) {
  const std::size_t slot = running_slot_[task];
  assert(slot < running_.size() && running_[slot].job == task);
  running_slot_[running_.back().job] = slot;
  std::swap(running_[slot], running_.back());
  running_.pop_back();
  running_slot_[task] = SIZE_MAX;
  if (!late_.empty()) std::erase(late_, task);
}

std::vector<StartChoice> OnlinePolicyAdapter::select(const EngineView& view) {
  // Nothing can start while the first resource (cores, processors) is all taken: whatever the policy planned,
  // its starts would have to wait for the next completion, where it re-plans anyway. Skipping is exact.
  if (pending_.empty() || view.available.front() == 0) return {};
  std::vector<StartChoice> starts;
  for (online::Placement& placement : policy_->plan(state(view))) {
    if (!has_come(placement.start, view.now)) continue;
    starts.push_back({placement.job, std::move(placement.alloc)});
  }
  return starts;
}

std::optional<double> OnlinePolicyAdapter::next_wakeup(const EngineView& view) const {
  if (pending_.empty()) return std::nullopt;
  // A time already past was planned for (plan() runs before this at every event where something can start).
  const std::optional<double> wake = policy_->next_wakeup();
  if (!wake || *wake <= view.now) return std::nullopt;
  return wake;
}

}  // namespace cosched::sim::policies
