#include "cosched/sim/online.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace cosched::sim {

namespace {

// A job completed: it ran and ended with status ok (the metrics count only those).
bool completed(const TaskRun& run) {
  return run.state == TaskState::done && run.completion.status == TaskStatus::ok;
}

}  // namespace

std::vector<online::JobOutcome> job_outcomes(const EngineResult& result) {
  std::vector<online::JobOutcome> outcomes(result.runs.size());
  for (std::size_t j = 0; j < result.runs.size(); ++j) {
    const TaskRun& run = result.runs[j];
    outcomes[j].release = run.release;
    if (!completed(run)) continue;
    outcomes[j] = {true, run.release, run.launch.start, run.completion.end, run.grant.amounts};
  }
  return outcomes;
}

namespace {

// The processors each task ran on: the cores the wall clock granted, or on the simulated clock (which counts
// processors) the lowest-numbered free ones at its start, assigned in start order (ties: task index), a processor
// freed at an instant free again at that instant. Never over-committed, as the engine's ledger is not.
std::vector<std::vector<int>> processors_of(const LaunchPlan& plan, const EngineResult& result) {
  const std::size_t n = result.runs.size();
  std::vector<std::vector<int>> processors(n);
  std::vector<std::size_t> started;
  for (std::size_t j = 0; j < n; ++j) {
    const TaskRun& run = result.runs[j];
    if (run.state != TaskState::done) continue;
    if (run.grant.cores.size() > 0) {
      for (const unsigned core : run.grant.cores.cores) processors[j].push_back(static_cast<int>(core));
    } else if (!run.grant.amounts.empty() && run.grant.amounts.front() > 0) {
      started.push_back(j);
    }
  }
  std::sort(started.begin(), started.end(), [&](std::size_t a, std::size_t b) {
    const double sa = result.runs[a].launch.start, sb = result.runs[b].launch.start;
    return sa != sb ? sa < sb : a < b;
  });
  std::priority_queue<int, std::vector<int>, std::greater<>> free;
  for (int p = 0; p < plan.capacities.front(); ++p) free.push(p);
  using Ending = std::pair<double, std::size_t>;
  std::priority_queue<Ending, std::vector<Ending>, std::greater<>> running;
  for (const std::size_t j : started) {
    const TaskRun& run = result.runs[j];
    for (; !running.empty() && running.top().first <= run.launch.start; running.pop()) {
      for (const int p : processors[running.top().second]) free.push(p);
    }
    for (int k = 0; k < run.grant.amounts.front(); ++k) {
      if (free.empty()) throw std::logic_error(fmt::format("task {} started with no processor free", plan.tasks[j].id));
      processors[j].push_back(free.top());
      free.pop();
    }
    std::sort(processors[j].begin(), processors[j].end());
    running.emplace(run.completion.end, j);
  }
  return processors;
}

std::string_view final_state(const TaskRun& run) {
  if (run.state != TaskState::done) return "NOT_STARTED";
  switch (run.completion.status) {
    case TaskStatus::ok: return "COMPLETED_SUCCESSFULLY";
    case TaskStatus::killed: return "COMPLETED_KILLED";
    case TaskStatus::failed:
    case TaskStatus::timeout: return "COMPLETED_FAILED";
  }
  return "COMPLETED_FAILED";
}

}  // namespace

std::vector<online::JobRecord> job_records(const LaunchPlan& plan, const EngineResult& result,
                                                  std::span<const std::size_t> campaign_of) {
  assert(plan.is_online() && result.runs.size() == plan.tasks.size());
  const online::OnlineWorkload& workload = *plan.online;
  const std::vector<std::vector<int>> processors = processors_of(plan, result);
  std::vector<online::JobRecord> records(result.runs.size());
  for (std::size_t j = 0; j < records.size(); ++j) {
    const TaskRun& run = result.runs[j];
    online::JobRecord& r = records[j];
    r.job_id = plan.tasks[j].id;
    r.workload_name = workload.name;
    r.submission_time = run.release;
    r.requested_number_of_resources = plan.tasks[j].demand.front();
    r.requested_time = workload.arrivals[j].estimate.value_or(-1.0);
    r.final_state = final_state(run);
    r.success = completed(run);
    r.reference_time = workload.reference_time[j];
    r.user = workload.arrivals[j].user;
    if (!campaign_of.empty()) r.campaign = campaign_of[j];
    if (run.state != TaskState::done) continue;
    const double start = run.launch.start, end = run.completion.end;
    r.starting_time = start;
    r.finish_time = end;
    r.execution_time = end - start;
    r.waiting_time = start - run.release;
    r.turnaround_time = end - run.release;  // the metrics' flow, to the bit
    r.stretch = r.turnaround_time / r.reference_time;
    r.allocated_resources = online::interval_set(processors[j]);
    r.allocation = run.grant.amounts;
  }
  return records;
}

online::OnlineMetrics run_metrics(const LaunchPlan& plan, const EngineResult& result) {
  assert(plan.is_online());
  // Folded straight from the engine's runs, as job_outcomes + online_metrics would compute them, without the
  // outcomes vector (issue 25: fresh memory per job at 10^7 jobs).
  online::OnlineMetricsFold fold(*plan.online);
  for (std::size_t j = 0; j < result.runs.size(); ++j) {
    const TaskRun& run = result.runs[j];
    if (completed(run)) {
      fold.completed(j, run.release, run.launch.start, run.completion.end, run.grant.amounts.front());
    } else {
      fold.not_completed(j, run.release);
    }
  }
  online::OnlineMetrics metrics = fold.finish();
  metrics.scheduling_seconds = result.policy_seconds;
  metrics.scheduling_max_seconds = result.policy_max_seconds;
  metrics.events = result.events;
  if (result.events > 0) metrics.scheduling_seconds_per_event = result.policy_seconds / static_cast<double>(result.events);
  return metrics;
}

}  // namespace cosched::sim
