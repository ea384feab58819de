#pragma once
// The engine's releases: tasks at fixed times (PlannedTask::release), and tasks behind release gates
// (LaunchPlan::gates) once their gate has opened. Both come out merged, by time and then task index, so a plan
// without gates releases its tasks in exactly the order it always did (stable release order).
#include <cstddef>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "cosched/sim/plan.hpp"

namespace cosched::sim {

class ReleaseQueue {
 public:
  // Throws UsageError for a gate that names a task or gate that does not exist, or gates and tasks that wait on
  // each other in a cycle (they would never be released).
  explicit ReleaseQueue(const LaunchPlan& plan);

  struct Due {
    std::size_t task = 0;
    double release = 0.0;
  };
  // The earliest release known now; nullopt when none is left or every remaining one waits for a completion.
  [[nodiscard]] std::optional<double> next() const;
  // The next task released at or before `now` (up to the rounding of sums of durations), taken out of the queue.
  std::optional<Due> take_due(double now);
  // `task` ended at `end` (any status): the gates waiting for it may open.
  void ended(std::size_t task, double end);

 private:
  using Timed = std::pair<double, std::size_t>;  // (release, task): ordered by time, then index
  [[nodiscard]] std::optional<Timed> peek() const;
  void open(std::size_t gate);
  void check_acyclic(const LaunchPlan& plan) const;

  std::vector<Timed> fixed_;  // the ungated tasks, in release order
  std::size_t next_fixed_ = 0;
  std::priority_queue<Timed, std::vector<Timed>, std::greater<>> gated_;  // released by an opened gate
  // Per gate: what it still waits for, the latest end so far, and (flattened, offsets per gate) what waits on it.
  std::vector<std::size_t> remaining_;
  std::vector<double> opening_;
  std::vector<std::size_t> behind_offset_, behind_;        // tasks behind each gate
  std::vector<std::size_t> followers_offset_, followers_;  // gates that follow each gate
  std::vector<std::size_t> waiting_offset_, waiting_;      // per task: the gates waiting for it
  const LaunchPlan* plan_;
};

}  // namespace cosched::sim
