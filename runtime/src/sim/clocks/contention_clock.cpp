#include "cosched/sim/clocks/contention_clock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/common/error.hpp"
#include "cosched/sched/bandwidth.hpp"

namespace cosched::sim {

ContentionClock::ContentionClock(const LaunchPlan& plan) : plan_(plan) {
  const std::size_t pools = plan.bandwidth.pools.size();
  for (const PlannedTask& task : plan.tasks) {
    const auto& demand = task.flow.bytes_per_s;
    const bool fits = (demand.empty() || demand.size() == pools) &&
                      std::all_of(demand.begin(), demand.end(), [](double d) { return std::isfinite(d) && d >= 0; }) &&
                      std::isfinite(task.flow.cores) && task.flow.cores > 0.0;
    if (!fits) {
      throw InputError(fmt::format("plan: task \"{}\"", task.id),
                       fmt::format("its memory demand has {} values for {} pools (each finite and >= 0) and {} "
                                   "cores (> 0)",
                                   demand.size(), pools, task.flow.cores));
    }
  }
}

double ContentionClock::Running::end() const {
  return rate > 0.0 ? anchor + left / rate : std::numeric_limits<double>::infinity();
}

LaunchRecord ContentionClock::launch(std::size_t task, const platform::Grant& /*grant*/) {
  running_.push_back({task, now_, plan_.tasks[task].predicted_duration, 1.0});
  solve_rates();
  LaunchRecord record;
  record.start = now_;
  record.placement = "simulated (contention-aware)";
  return record;
}

void ContentionClock::solve_rates() {
  if (plan_.bandwidth.empty() || running_.empty()) return;  // every rate stays 1
  std::vector<sched::FlowDemand> flows;
  flows.reserve(running_.size());
  for (const Running& run : running_) {
    sched::FlowDemand flow = plan_.tasks[run.task].flow;
    flow.bytes_per_s.resize(plan_.bandwidth.pools.size(), 0.0);  // no traffic known: no demand
    flows.push_back(std::move(flow));
  }
  const std::vector<double> rates = sched::progress_rates(plan_.bandwidth, flows);
  for (std::size_t k = 0; k < running_.size(); ++k) {
    Running& run = running_[k];
    if (rates[k] == run.rate) continue;  // same rate: same projected end, bit for bit
    run.left = std::max(0.0, run.left - run.rate * (now_ - run.anchor));
    run.anchor = now_;
    run.rate = rates[k];
  }
}

std::vector<Completion> ContentionClock::wait(std::optional<double> wake_at) {
  double next = std::numeric_limits<double>::infinity();
  for (const Running& run : running_) next = std::min(next, run.end());
  if (wake_at && *wake_at < next) {
    now_ = std::max(now_, *wake_at);
    return {};
  }
  if (running_.empty()) return {};
  if (std::isinf(next)) {
    throw RuntimeFailure(fmt::format("contention clock: {} running tasks make no progress (a memory pool of "
                                     "capacity 0?) and nothing else is planned",
                                     running_.size()));
  }
  now_ = std::max(now_, next);
  std::vector<Completion> done;
  // Completions at the same instant are reported together, in start order.
  std::erase_if(running_, [&](const Running& run) {
    if (run.end() != next) return false;
    done.push_back(Completion{run.task, next, TaskStatus::ok, 0, 0, ""});
    return true;
  });
  solve_rates();
  return done;
}

std::vector<Completion> ContentionClock::stop_running() {
  std::vector<Completion> done;
  for (const Running& run : running_) done.push_back(Completion{run.task, now_, TaskStatus::killed, -1, 9, "stopped"});
  running_.clear();
  return done;
}

std::optional<double> ContentionClock::rate(std::size_t task) const {
  for (const Running& run : running_) {
    if (run.task == task) return run.rate;
  }
  return std::nullopt;
}

}  // namespace cosched::sim
