#include "sim/release_queue.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/common/error.hpp"

namespace cosched::sim {

namespace {

// Flattens lists given as (owner, member) pairs into offsets per owner and members in pair order.
void flatten(std::size_t owners, const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
             std::vector<std::size_t>& offset, std::vector<std::size_t>& members) {
  offset.assign(owners + 1, 0);
  for (const auto& [owner, member] : pairs) ++offset[owner + 1];
  for (std::size_t i = 0; i < owners; ++i) offset[i + 1] += offset[i];
  members.resize(pairs.size());
  std::vector<std::size_t> fill(offset.begin(), offset.end() - 1);
  for (const auto& [owner, member] : pairs) members[fill[owner]++] = member;
}

}  // namespace

ReleaseQueue::ReleaseQueue(const LaunchPlan& plan) : plan_(&plan) {
  const std::size_t tasks = plan.tasks.size();
  const std::size_t gates = plan.gates.size();
  fixed_.reserve(tasks);
  for (std::size_t j = 0; j < tasks; ++j) {
    if (plan.tasks[j].gate == kNoGate) fixed_.emplace_back(plan.tasks[j].release, j);
  }
  // Stable by time: ties keep plan order, i.e. (time, index) order. Traces and generated workloads come sorted.
  const auto by_time = [](const Timed& a, const Timed& b) { return a.first < b.first; };
  if (!std::is_sorted(fixed_.begin(), fixed_.end(), by_time)) std::stable_sort(fixed_.begin(), fixed_.end(), by_time);
  if (gates == 0) {
    if (fixed_.size() != tasks) throw UsageError("a task is behind a release gate, and the plan has no gates");
    return;
  }
  std::vector<std::pair<std::size_t, std::size_t>> behind, followers, waiting;
  remaining_.assign(gates, 0);
  opening_.assign(gates, -std::numeric_limits<double>::infinity());
  for (std::size_t j = 0; j < tasks; ++j) {
    const std::size_t gate = plan.tasks[j].gate;
    if (gate == kNoGate) continue;
    if (gate >= gates) {
      throw UsageError(fmt::format("task {} waits for release gate {}; the plan has {}", plan.tasks[j].id, gate, gates));
    }
    behind.emplace_back(gate, j);
  }
  for (std::size_t g = 0; g < gates; ++g) {
    const ReleaseGate& gate = plan.gates[g];
    if (gate.follows != kNoGate) {
      if (gate.follows >= gates || gate.follows == g) {
        throw UsageError(fmt::format("release gate {} follows gate {}; the plan has {}", g, gate.follows, gates));
      }
      followers.emplace_back(gate.follows, g);
      ++remaining_[g];
    }
    for (const std::size_t task : gate.tasks) {
      if (task >= tasks) throw UsageError(fmt::format("release gate {} waits for task {} of {}", g, task, tasks));
      waiting.emplace_back(task, g);
      ++remaining_[g];
    }
  }
  flatten(gates, behind, behind_offset_, behind_);
  flatten(gates, followers, followers_offset_, followers_);
  flatten(tasks, waiting, waiting_offset_, waiting_);
  check_acyclic(plan);
  for (std::size_t g = 0; g < gates; ++g) {
    if (remaining_[g] == 0) {
      opening_[g] = plan.gates[g].planned_opening;  // waits for nothing
      open(g);
    }
  }
}

// Kahn's algorithm over tasks and gates: every one must be reachable from those that wait for nothing.
void ReleaseQueue::check_acyclic(const LaunchPlan& plan) const {
  const std::size_t tasks = plan.tasks.size();
  std::vector<std::size_t> gate_in(remaining_);
  std::vector<std::size_t> ready;  // tasks as j, gates as tasks + g
  for (std::size_t j = 0; j < tasks; ++j) {
    if (plan.tasks[j].gate == kNoGate) ready.push_back(j);
  }
  for (std::size_t g = 0; g < gate_in.size(); ++g) {
    if (gate_in[g] == 0) ready.push_back(tasks + g);
  }
  std::size_t reached = 0;
  const auto reach_gate = [&](std::size_t g) {
    if (--gate_in[g] == 0) ready.push_back(tasks + g);
  };
  while (!ready.empty()) {
    const std::size_t node = ready.back();
    ready.pop_back();
    ++reached;
    if (node < tasks) {
      for (std::size_t k = waiting_offset_[node]; k < waiting_offset_[node + 1]; ++k) reach_gate(waiting_[k]);
      continue;
    }
    const std::size_t g = node - tasks;
    for (std::size_t k = behind_offset_[g]; k < behind_offset_[g + 1]; ++k) ready.push_back(behind_[k]);
    for (std::size_t k = followers_offset_[g]; k < followers_offset_[g + 1]; ++k) reach_gate(followers_[k]);
  }
  if (reached != tasks + gate_in.size()) {
    throw UsageError(fmt::format("the plan's release gates wait on each other in a cycle: {} of {} tasks and gates "
                                 "could never be released",
                                 tasks + gate_in.size() - reached, tasks + gate_in.size()));
  }
}

std::optional<ReleaseQueue::Timed> ReleaseQueue::peek() const {
  std::optional<Timed> next;
  if (next_fixed_ < fixed_.size()) next = fixed_[next_fixed_];
  if (!gated_.empty() && (!next || gated_.top() < *next)) next = gated_.top();
  return next;
}

std::optional<double> ReleaseQueue::next() const {
  const auto next = peek();
  if (!next) return std::nullopt;
  return next->first;
}

std::optional<ReleaseQueue::Due> ReleaseQueue::take_due(double now) {
  const auto next = peek();
  if (!next) return std::nullopt;
  const double release = next->first;
  if (release > now + 1e-9 * std::max(1.0, std::abs(release))) return std::nullopt;
  if (next_fixed_ < fixed_.size() && fixed_[next_fixed_] == *next) {
    ++next_fixed_;
  } else {
    gated_.pop();
  }
  return Due{next->second, release};
}

void ReleaseQueue::ended(std::size_t task, double end) {
  if (waiting_offset_.empty()) return;
  for (std::size_t k = waiting_offset_[task]; k < waiting_offset_[task + 1]; ++k) {
    const std::size_t g = waiting_[k];
    opening_[g] = std::max(opening_[g], end);
    if (--remaining_[g] == 0) open(g);
  }
}

void ReleaseQueue::open(std::size_t gate) {
  std::vector<std::size_t> opened{gate};
  while (!opened.empty()) {
    const std::size_t g = opened.back();
    opened.pop_back();
    for (std::size_t k = behind_offset_[g]; k < behind_offset_[g + 1]; ++k) {
      const std::size_t task = behind_[k];
      // The planned release shifted by the gate's lateness: exactly the planned release when it opens on time.
      gated_.emplace(plan_->tasks[task].release + (opening_[g] - plan_->gates[g].planned_opening), task);
    }
    for (std::size_t k = followers_offset_[g]; k < followers_offset_[g + 1]; ++k) {
      const std::size_t follower = followers_[k];
      opening_[follower] = std::max(opening_[follower], opening_[g]);
      if (--remaining_[follower] == 0) opened.push_back(follower);
    }
  }
}

}  // namespace cosched::sim
