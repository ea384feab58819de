#pragma once
// The simulated clock: time jumps from event to event; a task started at s completes at s + duration(task).
// With the predicted durations this is the prediction of a launch; tests give it other durations (late tasks,
// failures) to check the policies and the resource ledger.
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

#include "cosched/sim/engine.hpp"

namespace cosched::sim {

struct SimulatedOutcome {
  double duration = 0.0;
  TaskStatus status = TaskStatus::ok;
};

class SimulatedClock final : public Clock {
 public:
  // Every task takes its duration at the allocation it is granted (LaunchPlan::duration) and succeeds.
  explicit SimulatedClock(const LaunchPlan& plan);
  SimulatedClock(const LaunchPlan& plan, std::function<SimulatedOutcome(std::size_t task)> outcome);
  explicit SimulatedClock(std::function<SimulatedOutcome(std::size_t task, const platform::Grant& grant)> outcome);

  [[nodiscard]] std::string_view name() const override { return "simulated"; }
  [[nodiscard]] double now() override { return now_; }
  LaunchRecord launch(std::size_t task, const platform::Grant& grant) override;
  std::vector<Completion> wait(std::optional<double> wake_at) override;
  std::vector<Completion> stop_running() override;

 private:
  struct Running {
    double end;
    std::uint64_t sequence;  // start order: completions at one instant are reported in it
    std::size_t task;
    TaskStatus status;
    bool operator>(const Running& other) const {
      return end != other.end ? end > other.end : sequence > other.sequence;
    }
  };
  std::function<SimulatedOutcome(std::size_t, const platform::Grant&)> outcome_;
  // Running tasks, the next to end on top: O(log n) per event, however many run.
  std::priority_queue<Running, std::vector<Running>, std::greater<>> running_;
  std::uint64_t started_ = 0;
  double now_ = 0.0;
};

}  // namespace cosched::sim
