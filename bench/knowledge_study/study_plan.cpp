#include "knowledge_study/study_plan.hpp"

#include <algorithm>
#include <limits>

#include "cosched/sched/allocation.hpp"
#include "cosched/sched/resource_kinds.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/model_search.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::bench {

sched::Instance instance_of(const Batch& batch, const knowledge::NodeShape& node,
                            const std::vector<std::shared_ptr<const sched::TimeProfile>>& profiles) {
  std::vector<sched::Task> tasks;
  for (std::size_t j = 0; j < batch.tasks.size(); ++j) tasks.push_back({batch.tasks[j].id, profiles[j]});
  return sched::Instance({{std::string(sched::kCoresResource), node.cores},
                          {std::string(sched::kFastChunksResource), node.fast_chunks}},
                         std::move(tasks));
}

sched::Instance true_instance(const Batch& batch, const knowledge::NodeShape& node) {
  const sched::AllocationSpace space({node.cores, node.fast_chunks});
  std::vector<std::shared_ptr<const sched::TimeProfile>> profiles;
  for (const BatchTask& task : batch.tasks) {
    std::vector<double> times(space.size());
    for (std::size_t k = 0; k < space.size(); ++k) {
      const std::vector<int> alloc = space.decode(k);
      times[k] = alloc[0] == 0 ? std::numeric_limits<double>::infinity()
                               : batch.programs[task.program].seconds(alloc[0], alloc[1], task.work);
    }
    profiles.push_back(std::make_shared<const sched::DenseTimeTable>(space, std::move(times)));
  }
  return instance_of(batch, node, profiles);
}

sched::Schedule Planner::schedule(const sched::Instance& instance, const std::string& algorithm) {
  if (algorithm != sim::kModelSearchName) return sim::find_algorithm(algorithm).schedule(instance);
  sched::Schedule best_schedule;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < std::max<std::size_t>(1, options.planner_seeds); ++k) {
    sim::SearchOutcome outcome = sim::model_search(
        instance, {options.planner_budget_ms, options.seed + seed_offset + k, options.planner_evaluations});
    ++searches;
    stopped_by_budget += outcome.stopped_by == "budget" ? 1 : 0;
    evaluations += outcome.evaluations;
    seconds += outcome.seconds;
    if (outcome.predicted_makespan < best) {
      best = outcome.predicted_makespan;
      best_schedule = std::move(outcome.schedule);
    }
  }
  return best_schedule;
}

sim::LaunchPlan Planner::plan(const sched::Instance& instance, const std::string& algorithm) {
  return sim::plan_from_schedule(instance, schedule(instance, algorithm));
}

sim::LaunchPlan on_truth(const sim::LaunchPlan& plan, const sched::Instance& truth) {
  sim::LaunchPlan run = plan;
  for (std::size_t j = 0; j < run.tasks.size(); ++j) {
    run.tasks[j].predicted_duration = truth.time(j, run.tasks[j].demand);
  }
  return run;
}

double makespan_of(const sim::LaunchPlan& plan) { return sim::predict_contention(plan, "auto").observed_makespan; }

std::vector<std::shared_ptr<const sched::TimeProfile>> profiles_of(const Fits& fits,
                                                                   const knowledge::TimeChoice& times) {
  std::vector<std::shared_ptr<const sched::TimeProfile>> profiles;
  for (const auto& fit : fits) profiles.push_back(fit->profile(times));
  return profiles;
}

sim::LaunchPlan plan_of(Planner& planner, const Batch& batch, const knowledge::NodeShape& node, const Fits& fits,
                        const knowledge::TimeChoice& times) {
  sim::LaunchPlan plan = planner.plan(instance_of(batch, node, profiles_of(fits, times)));
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    plan.tasks[j].predicted_duration = fits[j]->at(plan.tasks[j].demand[0], plan.tasks[j].demand[1]).seconds;
  }
  return plan;
}

}  // namespace cosched::bench
