#pragma once
// The simulated clock: time jumps from event to event; a task started at s completes at s + duration(task).
// With the predicted durations this is the prediction of a launch; tests give it other durations (late tasks,
// failures) to check the policies and the resource ledger.
#include <functional>
#include <optional>
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
    std::size_t task;
    double end;
    TaskStatus status;
  };
  std::function<SimulatedOutcome(std::size_t, const platform::Grant&)> outcome_;
  std::vector<Running> running_;
  double now_ = 0.0;
};

}  // namespace cosched::sim
