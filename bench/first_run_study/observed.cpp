#include "first_run_study/observed.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <utility>

#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/model_search.hpp"

namespace cosched::bench {

std::optional<sim::Replan> TimedReplanner::task_ended(std::size_t task, const sim::EngineView& view,
                                                      const sim::StandingList& standing) {
  const auto begin = std::chrono::steady_clock::now();
  std::optional<sim::Replan> replan = inner_.task_ended(task, view, standing);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  seconds_ += took;
  longest_ = std::max(longest_, took);
  return replan;
}

std::string_view ObservedModelSearch::name() const { return sim::kModelSearchName; }

std::string ObservedModelSearch::refusal(const sched::Instance& instance) const {
  return sim::find_algorithm(sim::kModelSearchName).refusal(instance);
}

sched::Schedule ObservedModelSearch::schedule(const sched::Instance& instance) const {
  return schedule_within(instance, sched::SearchLimits{});
}

sched::Schedule ObservedModelSearch::schedule_within(const sched::Instance& instance,
                                                     const sched::SearchLimits& limits) const {
  const sched::SearchLimits used =
      max_evaluations_ > 0 ? sched::SearchLimits{kGenerousBudgetMs, limits.seed, max_evaluations_} : limits;
  sim::SearchOutcome outcome = sim::model_search(instance, used);
  ++seen_.searches;
  seen_.evaluations += outcome.evaluations;
  seen_.stopped_by_budget += outcome.stopped_by == "budget" ? 1 : 0;
  seen_.budget_ms = used.budget_ms;
  return std::move(outcome.schedule);
}

double idle_while_waiting(const sim::EngineResult& launch, int cores) {
  std::vector<std::pair<double, int>> changes;  // (time, cores taken (+) or given back (-))
  double last_start = 0.0;
  for (const sim::TaskRun& run : launch.runs) {
    changes.emplace_back(run.launch.start, run.grant.amounts.front());
    changes.emplace_back(run.completion.end, -run.grant.amounts.front());
    last_start = std::max(last_start, run.launch.start);
  }
  std::sort(changes.begin(), changes.end());
  double idle = 0.0;
  double at = 0.0;
  int used = 0;
  for (const auto& [time, delta] : changes) {
    if (time >= last_start) break;
    idle += (cores - used) * (time - at);
    at = time;
    used += delta;
  }
  return idle + (cores - used) * (last_start - at);
}

void count_start_shifts(const std::vector<std::size_t>& kind, const sim::EngineResult& naive,
                        const sim::EngineResult& replanned, StartShift& known, StartShift& guessed) {
  std::map<std::size_t, double> first_end;  // by kind
  for (std::size_t j = 0; j < kind.size(); ++j) {
    const double end = replanned.runs[j].completion.end;
    if (!first_end.contains(kind[j]) || end < first_end[kind[j]]) first_end[kind[j]] = end;
  }
  for (std::size_t j = 0; j < kind.size(); ++j) {
    const sim::TaskRun& before = naive.runs[j];
    const sim::TaskRun& after = replanned.runs[j];
    if (before.launch.start == 0.0 && after.launch.start == 0.0) continue;
    StartShift& shift = first_end[kind[j]] <= after.launch.start ? known : guessed;
    ++shift.tasks;
    shift.shift_s += after.launch.start - before.launch.start;
    shift.seconds += after.completion.end - after.launch.start;
  }
}

}  // namespace cosched::bench
