#pragma once
// The contention clock: the contention-aware prediction (issue 10). Like the simulated clock, time jumps from
// event to event and nothing runs; but a task's predicted duration is its work in "alone seconds", done at a
// progress rate in (0, 1] that depends on who runs beside it. At every start and every completion the rates of
// all running tasks are solved again from their demands on the memory pools and the pools' capacities
// (sched::progress_rates: weighted max-min sharing, a fluid model), and between events each task's remaining work
// falls by rate * dt. A task slows only while a pool it uses is over-subscribed.
//
// Without a bandwidth model, or for tasks without traffic, every rate is 1 and the times are exactly the
// simulated clock's: a task's projected end is only recomputed when its rate changes.
#include <cstddef>
#include <optional>
#include <vector>

#include "cosched/sim/engine.hpp"

namespace cosched::sim {

class ContentionClock final : public Clock {
 public:
  // Throws InputError when a task's demand does not fit the plan's bandwidth model (one finite, non-negative
  // bytes/s per pool, or none; cores > 0).
  explicit ContentionClock(const LaunchPlan& plan);

  [[nodiscard]] std::string_view name() const override { return "contention"; }
  [[nodiscard]] double now() override { return now_; }
  LaunchRecord launch(std::size_t task, const platform::Grant& grant) override;
  // Throws RuntimeFailure when tasks run, none makes progress (a pool of capacity 0) and no wake time is given.
  std::vector<Completion> wait(std::optional<double> wake_at) override;
  std::vector<Completion> stop_running() override;

  // The task's progress rate now (1 = as fast as alone), nullopt when it is not running.
  [[nodiscard]] std::optional<double> rate(std::size_t task) const;

 private:
  // Progress is kept as (anchor time, work left then, rate since then): the projected end is
  // anchor + left / rate, and the anchor only moves when the rate changes.
  struct Running {
    std::size_t task;
    double anchor;
    double left;
    double rate;
    [[nodiscard]] double end() const;
  };
  void solve_rates();

  const LaunchPlan& plan_;
  std::vector<Running> running_;  // in start order
  double now_ = 0.0;
};

}  // namespace cosched::sim
