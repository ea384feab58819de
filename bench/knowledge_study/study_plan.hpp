#pragma once
// What every row of the knowledge study plans with (study.cpp, recurring.cpp): a batch as an instance — of the
// true times or of what the fits say —, the default planner (model-search, best of a few seeds), and a plan run on
// the truth.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sim/plan.hpp"
#include "knowledge_study/profiling.hpp"
#include "knowledge_study/study.hpp"

namespace cosched::bench {

[[nodiscard]] sched::Instance instance_of(const Batch& batch, const knowledge::NodeShape& node,
                                          const std::vector<std::shared_ptr<const sched::TimeProfile>>& profiles);
// The batch's true times at every allocation of the node (0 cores: +inf).
[[nodiscard]] sched::Instance true_instance(const Batch& batch, const knowledge::NodeShape& node);

// The planner every row uses, and what it cost. A plan stopped by its wall-time budget is counted.
struct Planner {
  const StudyOptions& options;
  std::size_t searches = 0;
  std::size_t stopped_by_budget = 0;
  std::size_t evaluations = 0;
  double seconds = 0.0;
  std::uint64_t seed_offset = 0;  // added to the study's seed: the planner's own noise, planned again

  // model-search (the best predicted of options.planner_seeds seeds), or another registered algorithm.
  [[nodiscard]] sched::Schedule schedule(const sched::Instance& instance, const std::string& algorithm = "model-search");
  [[nodiscard]] sim::LaunchPlan plan(const sched::Instance& instance, const std::string& algorithm = "model-search");
};

// The plan with the true times at its allocations (the truth's closure included), run with its launch rule. Any
// instance of the batch may stand for the truth: the diagnosis rates plans on a row's fits this way.
[[nodiscard]] sim::LaunchPlan on_truth(const sim::LaunchPlan& plan, const sched::Instance& truth);
[[nodiscard]] double makespan_of(const sim::LaunchPlan& plan);

[[nodiscard]] std::vector<std::shared_ptr<const sched::TimeProfile>> profiles_of(const Fits& fits,
                                                                                 const knowledge::TimeChoice& times);
// A plan of what the fits say: chosen on their `times`, each task then predicted at its median (the planned starts
// stay: the launch waits for them — planned on times far above the medians, it waits longer than it needs).
[[nodiscard]] sim::LaunchPlan plan_of(Planner& planner, const Batch& batch, const knowledge::NodeShape& node,
                                      const Fits& fits, const knowledge::TimeChoice& times);

}  // namespace cosched::bench
