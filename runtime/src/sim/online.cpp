#include "cosched/sim/online.hpp"

#include <cassert>

namespace cosched::sim {

std::vector<sched::online::JobOutcome> job_outcomes(const EngineResult& result) {
  std::vector<sched::online::JobOutcome> outcomes(result.runs.size());
  for (std::size_t j = 0; j < result.runs.size(); ++j) {
    const TaskRun& run = result.runs[j];
    if (run.state != TaskState::done || run.completion.status != TaskStatus::ok) continue;
    outcomes[j] = {true, run.launch.start, run.completion.end, run.grant.amounts};
  }
  return outcomes;
}

sched::online::OnlineMetrics run_metrics(const LaunchPlan& plan, const EngineResult& result) {
  assert(plan.is_online());
  sched::online::OnlineMetrics metrics = sched::online::online_metrics(*plan.online, job_outcomes(result));
  metrics.scheduling_seconds = result.policy_seconds;
  metrics.scheduling_max_seconds = result.policy_max_seconds;
  metrics.events = result.events;
  if (result.events > 0) metrics.scheduling_seconds_per_event = result.policy_seconds / static_cast<double>(result.events);
  return metrics;
}

}  // namespace cosched::sim
