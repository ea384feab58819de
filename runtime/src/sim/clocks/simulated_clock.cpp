#include "cosched/sim/clocks/simulated_clock.hpp"

#include <algorithm>
#include <limits>

namespace cosched::sim {

SimulatedClock::SimulatedClock(const LaunchPlan& plan)
    : SimulatedClock([&plan](std::size_t task, const platform::Grant& grant) {
        return SimulatedOutcome{plan.duration(task, grant.amounts), TaskStatus::ok};
      }) {}

SimulatedClock::SimulatedClock(const LaunchPlan& /*plan*/, std::function<SimulatedOutcome(std::size_t)> outcome)
    : SimulatedClock([outcome = std::move(outcome)](std::size_t task, const platform::Grant&) { return outcome(task); }) {}

SimulatedClock::SimulatedClock(std::function<SimulatedOutcome(std::size_t, const platform::Grant&)> outcome)
    : outcome_(std::move(outcome)) {}

LaunchRecord SimulatedClock::launch(std::size_t task, const platform::Grant& grant) {
  const SimulatedOutcome outcome = outcome_(task, grant);
  running_.push_back({task, now_ + outcome.duration, outcome.status});
  LaunchRecord record;
  record.start = now_;
  record.placement = "simulated";
  return record;
}

std::vector<Completion> SimulatedClock::wait(std::optional<double> wake_at) {
  double next = std::numeric_limits<double>::infinity();
  for (const auto& run : running_) next = std::min(next, run.end);
  if (wake_at && *wake_at < next) {
    now_ = std::max(now_, *wake_at);
    return {};
  }
  if (running_.empty()) return {};
  now_ = std::max(now_, next);
  std::vector<Completion> done;
  // Completions at the same instant are reported together, in start order.
  std::erase_if(running_, [&](const Running& run) {
    if (run.end != next) return false;
    Completion completion;
    completion.task = run.task;
    completion.end = run.end;
    completion.status = run.status;
    completion.exit_code = run.status == TaskStatus::ok ? 0 : 1;
    if (run.status != TaskStatus::ok) completion.message = "simulated " + std::string(to_string(run.status));
    done.push_back(completion);
    return true;
  });
  return done;
}

std::vector<Completion> SimulatedClock::stop_running() {
  std::vector<Completion> done;
  for (const auto& run : running_) {
    done.push_back(Completion{run.task, now_, TaskStatus::killed, -1, 9, "stopped"});
  }
  running_.clear();
  return done;
}

}  // namespace cosched::sim
