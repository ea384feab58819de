#include "knowledge_study/launch_learning.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "cosched/sim/prediction.hpp"

namespace cosched::bench {

namespace {

// profiler/src/learning/launch_replanner.cpp: a re-plan is taken when it is shorter by more than this share.
constexpr double kBetterBy = 1e-6;

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
    std::vector<double> times(medians.space().size(), std::numeric_limits<double>::infinity());
    times[medians.space().index_of(run.grant.amounts)] = sim::running_time_left(predicted, elapsed);
    tasks[i].profile = std::make_shared<sched::DenseTimeTable>(medians.space(), std::move(times));
    chosen_on[i].profile = tasks[i].profile;
  }
  const sched::Instance held(medians.resources(), std::move(tasks), medians.attributes(), medians.bandwidth());
  const sched::Schedule schedule = setup_.plan(
      sched::Instance(medians.resources(), std::move(chosen_on), medians.attributes(), medians.bandwidth()));

  // The rest as the greedy rule runs it from now: the running tasks where they are, then the pending ones in order.
  std::vector<sim::RestTask> running;
  for (std::size_t i = 0; i < left.size(); ++i) {
    const sim::TaskRun& run = view.runs[left[i]];
    if (run.state == sim::TaskState::running) {
      running.push_back({view.plan.tasks[left[i]].id, run.grant.amounts, held.time(i, run.grant.amounts)});
    }
  }
  const auto rest_s = [&](const std::vector<std::pair<std::size_t, std::vector<int>>>& pending) {
    std::vector<sim::RestTask> order;
    for (const auto& [i, alloc] : pending) order.push_back({view.plan.tasks[left[i]].id, alloc, held.time(i, alloc)});
    return sim::greedy_rest_seconds(view.plan.resource_names, view.plan.capacities, running, order);
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

}  // namespace cosched::bench
