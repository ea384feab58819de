#include "knowledge_study/launch_learning.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sim/policies.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/resources.hpp"

namespace cosched::bench {

namespace {

// profiler/src/learning/launch_replanner.cpp: a running task whose fit says it should have ended already is taken
// to end within this share of its predicted time; a re-plan is taken when it is shorter by more than kBetterBy.
constexpr double kOverrunShare = 0.1;
constexpr double kBetterBy = 1e-6;
constexpr double kMinRunSeconds = 1e-6;  // profiler/knowledge_store.hpp

bool one_count(const std::shared_ptr<const knowledge::FittedTask>& fit) {
  return fit != nullptr && fit->cores_fit().core_counts() < 2;
}

}  // namespace

std::optional<sim::Replan> LearningLaunch::task_ended(std::size_t task, const sim::EngineView& view,
                                                      const sim::StandingList& standing) {
  const sim::TaskRun& ended = view.runs.at(task);
  if (ended.completion.status != sim::TaskStatus::ok || !one_count(setup_.fits.at(task))) return std::nullopt;
  const std::size_t kind = setup_.kind[task];
  const std::vector<int>& ran = ended.grant.amounts;
  learnt_[kind].push_back({ran[0], ran.size() > 1 ? ran[1] : 0, setup_.work[task], setup_.observed(task, ran)});

  // The kind's unfinished tasks fitted again; a re-plan is worth it when a pending one has a law now.
  bool taught = false;
  for (std::size_t j = 0; j < view.runs.size(); ++j) {
    const sim::TaskState state = view.runs[j].state;
    if (setup_.kind[j] != kind || (state != sim::TaskState::pending && state != sim::TaskState::running)) continue;
    std::shared_ptr<const knowledge::FittedTask> fit = setup_.refit(j, learnt_[kind]);
    if (!fit) continue;
    taught = taught || (state == sim::TaskState::pending && !one_count(fit));
    setup_.fits[j] = std::move(fit);
  }
  if (!taught) return std::nullopt;

  // What is left: the running tasks (to hold their allocations) and the pending ones (to plan).
  std::vector<std::size_t> left;
  for (std::size_t j = 0; j < view.runs.size(); ++j) {
    const sim::TaskState state = view.runs[j].state;
    if (state == sim::TaskState::running || state == sim::TaskState::pending) left.push_back(j);
  }
  Fits fits;
  for (const std::size_t j : left) fits.push_back(setup_.fits[j]);
  const sched::Instance medians = setup_.instance(left, fits, knowledge::kMedianTimes);
  const sched::Instance expected = setup_.instance(left, fits, knowledge::kExpectedTimes);
  std::vector<sched::Task> tasks = medians.tasks();
  std::vector<sched::Task> chosen_on = expected.tasks();
  for (std::size_t i = 0; i < left.size(); ++i) {
    const sim::TaskRun& run = view.runs[left[i]];
    if (run.state != sim::TaskState::running) continue;
    const double predicted = medians.time(i, run.grant.amounts);
    const double elapsed = std::max(0.0, view.now - run.launch.start);
    const double rest = std::isfinite(predicted) ? std::max(predicted - elapsed, kOverrunShare * predicted) : elapsed;
    std::vector<double> times(medians.space().size(), std::numeric_limits<double>::infinity());
    times[medians.space().index_of(run.grant.amounts)] = std::max(rest, kMinRunSeconds);
    tasks[i].profile = std::make_shared<sched::DenseTimeTable>(medians.space(), std::move(times));
    chosen_on[i].profile = tasks[i].profile;
  }
  const sched::Instance held(medians.resources(), std::move(tasks), medians.attributes(), medians.bandwidth());
  const sched::Schedule schedule = setup_.plan(
      sched::Instance(medians.resources(), std::move(chosen_on), medians.attributes(), medians.bandwidth()));

  // The rest as the greedy rule runs it from now: the running tasks where they are, then the pending ones in order.
  const auto rest_s = [&](const std::vector<std::pair<std::size_t, std::vector<int>>>& pending) {
    sim::LaunchPlan rest;
    rest.algorithm = "rest";
    rest.launch_rule = "greedy";
    rest.resource_names = view.plan.resource_names;
    rest.capacities = view.plan.capacities;
    for (std::size_t i = 0; i < left.size(); ++i) {
      const sim::TaskRun& run = view.runs[left[i]];
      if (run.state == sim::TaskState::running) {
        rest.tasks.push_back({view.plan.tasks[left[i]].id, run.grant.amounts, 0.0, held.time(i, run.grant.amounts)});
      }
    }
    for (const auto& [i, alloc] : pending) {
      const double time = held.time(i, alloc);
      if (!std::isfinite(time)) return std::numeric_limits<double>::infinity();
      rest.tasks.push_back({view.plan.tasks[left[i]].id, alloc, 0.0, time});
    }
    return sim::predict(rest, "greedy").observed_makespan;
  };
  std::vector<std::size_t> planned;  // indices into `left` of the pending tasks, in the re-plan's order
  for (std::size_t i = 0; i < left.size(); ++i) {
    if (view.runs[left[i]].state == sim::TaskState::pending) planned.push_back(i);
  }
  std::stable_sort(planned.begin(), planned.end(),
                   [&](std::size_t a, std::size_t b) { return schedule.tasks[a].start < schedule.tasks[b].start; });
  sim::Replan replan;
  std::vector<std::pair<std::size_t, std::vector<int>>> candidate;
  for (const std::size_t i : planned) {
    const std::size_t j = left[i];
    // A guessed task keeps its allocation (launch_replanner.cpp): its other choices are ties the planner broke.
    std::vector<int> demand = setup_.fits[j] ? schedule.tasks[i].alloc : standing.demands[j];
    candidate.emplace_back(i, demand);
    replan.tasks.push_back({j, std::move(demand), std::nullopt, setup_.fits[j] == nullptr});
  }
  std::vector<std::pair<std::size_t, std::vector<int>>> as_standing;
  for (const std::size_t j : standing.order) {
    if (view.runs[j].state != sim::TaskState::pending) continue;
    const auto i = static_cast<std::size_t>(std::find(left.begin(), left.end(), j) - left.begin());
    as_standing.emplace_back(i, standing.demands[j]);
  }
  const double rest = rest_s(candidate);
  const double rest_standing = rest_s(as_standing);
  if (!(rest < rest_standing * (1.0 - kBetterBy))) return std::nullopt;
  ++replans_;
  replan.rest_s = rest;
  replan.reason = fmt::format("learnt a second core count of kind {}: the rest {:.4g} s against {:.4g} s", kind,
                              rest, rest_standing);
  return replan;
}

sim::EngineResult launch_on_truth(const sim::LaunchPlan& plan, const sched::Instance& truth,
                                  sim::Replanner* replanner) {
  auto policy = sim::make_policy("auto", plan, replanner);
  auto pool = sim::make_abstract_pool(plan.resource_names, plan.capacities);
  sim::SimulatedClock clock([&](std::size_t task, const platform::Grant& grant) {
    return sim::SimulatedOutcome{truth.time(task, grant.amounts), sim::TaskStatus::ok};
  });
  sim::EngineResult result = sim::run_engine(plan, *policy, clock, *pool);
  if (result.completed != plan.tasks.size()) {
    throw std::logic_error(fmt::format("a launch of the study ended {} of its {} tasks", result.completed,
                                       plan.tasks.size()));
  }
  return result;
}

}  // namespace cosched::bench
