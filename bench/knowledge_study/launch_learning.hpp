#pragma once
// The recurring study's launch as it learns (recurring.hpp, row learn-in-launch; cosched run's
// profiler::LaunchReplanner, mirrored: the study does not link the profiler). A task whose fit over cores was through
// one core count (knowledge::SpeedupFit::core_counts: its kind had run at one count only — the prior over cores)
// ends at another count: its run joins its kind's runs, the kind's unfinished tasks are fitted again — through two
// counts now —, and the pending tasks are planned again while the running ones keep their allocations for what
// their fits say is left of them. The re-plan is taken when it predicts the rest of the launch (the greedy rule from
// now, running tasks first) shorter than the plan as it stands, both on the medians of what is known now.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "cosched/knowledge/task_fit.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/replanning.hpp"
#include "knowledge_study/profiling.hpp"

namespace cosched::bench {

struct LaunchLearning {
  std::vector<std::size_t> kind;        // per task of the batch: its kind
  std::vector<double> work;             // per task: its amount of work
  Fits fits;                            // per task: what the plan was made from (null: a guess)
  // What a run of `task` at `alloc` is observed to take (its time with the run's noise).
  std::function<double(std::size_t task, const std::vector<int>& alloc)> observed;
  // Task `task` fitted from its kind's runs and `learnt`, this launch's runs of the kind (null: no fit).
  std::function<std::shared_ptr<const knowledge::FittedTask>(std::size_t task,
                                                             const std::vector<knowledge::Measurement>& learnt)>
      refit;
  // Some tasks of the batch, in this order, as an instance of their fits' `times` (a null fit: the guess).
  std::function<sched::Instance(const std::vector<std::size_t>& tasks, const Fits& fits,
                                const knowledge::TimeChoice& times)>
      instance;
  // The plan's planner, on an instance.
  std::function<sched::Schedule(const sched::Instance& instance)> plan;
};

class LearningLaunch final : public sim::Replanner {
 public:
  explicit LearningLaunch(LaunchLearning setup) : setup_(std::move(setup)) {}

  [[nodiscard]] std::optional<sim::Replan> task_ended(std::size_t task, const sim::EngineView& view,
                                                      const sim::StandingList& standing) override;
  [[nodiscard]] std::size_t replans() const noexcept { return replans_; }

 private:
  LaunchLearning setup_;
  std::map<std::size_t, std::vector<knowledge::Measurement>> learnt_;  // by kind: this launch's runs it learnt from
  std::size_t replans_ = 0;
};

}  // namespace cosched::bench
