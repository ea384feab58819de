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
  running_.push({now_ + outcome.duration, started_++, task, outcome.status});
  LaunchRecord record;
  record.start = now_;
  record.placement = "simulated";
  return record;
}

std::vector<Completion> SimulatedClock::wait(std::optional<double> wake_at) {
  const double next = running_.empty() ? std::numeric_limits<double>::infinity() : running_.top().end;
  if (wake_at && *wake_at < next) {
    now_ = std::max(now_, *wake_at);
    return {};
  }
  if (running_.empty()) return {};
  now_ = std::max(now_, next);
  std::vector<Completion> done;
  // Completions at the same instant are reported together, in start order.
  while (!running_.empty() && running_.top().end == next) {
    const Running run = running_.top();
    running_.pop();
    Completion completion;
    completion.task = run.task;
    completion.end = run.end;
    completion.status = run.status;
    completion.exit_code = run.status == TaskStatus::ok ? 0 : 1;
    if (run.status != TaskStatus::ok) completion.message = "simulated " + std::string(to_string(run.status));
    done.push_back(std::move(completion));
  }
  return done;
}

std::vector<Completion> SimulatedClock::stop_running() {
  std::vector<Running> stopped;
  for (; !running_.empty(); running_.pop()) stopped.push_back(running_.top());
  std::sort(stopped.begin(), stopped.end(), [](const Running& a, const Running& b) { return a.sequence < b.sequence; });
  std::vector<Completion> done;
  for (const auto& run : stopped) done.push_back(Completion{run.task, now_, TaskStatus::killed, -1, 9, "stopped"});
  return done;
}

}  // namespace cosched::sim
