#pragma once
// `cosched run` learning as its launch goes (issue 39: "a kind not yet known starts at a safe allocation and the
// rest of the batch is re-planned as results arrive"). When a task the plan only guessed at ends well and its run
// gives a pending task of its kind the fit it lacked — the kind's first run, or a run at an amount of work its
// earlier runs were too far from to carry —, or when a task planned by its kind's prior over cores (the kind had run
// at one core count only: knowledge::SpeedupFit) ran at another count, so that its pending tasks have a law through
// two counts where they had the prior, its run becomes a run of its kind (add_observed_run: in memory;
// learn_from_launch stores every run after the launch), and the tasks still pending are planned again — by the
// planner that made the plan, from what is known now — while the tasks still running keep their cores and fast
// chunks for what their fits say is left of them.
// The re-plan is taken when it predicts the rest of the launch (the greedy rule from now, running tasks first)
// shorter than the plan as it stands, both from what is known now; the launch (sim/replanning.hpp) then starts the
// pending tasks in the new order and allocations.
// A kind first run in this launch is taken to be no faster anywhere than where it ran (its time there, at more
// resources too: the model's tables are closed): one run says what a task takes there, not how it speeds up — the
// fit's prior for other core counts is a guess a batch of programs that do not scale pays for (on this VM, `sleep`
// commands re-planned on both cores by that prior ran 0.64 s against the naive 0.5 s).
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/traffic.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/replanning.hpp"

namespace cosched::profiler {

class LaunchReplanner final : public sim::Replanner {
 public:
  // `plan`: the launch's (its tasks are `batch`'s, by id); `guessed_tasks`: the ids of its tasks timed at a guess
  // (guessed_tasks of its instance); `known`: what it was planned from, by `options` (the node, the fit options);
  // `bandwidth`: the node's pools (nullopt: none); `algorithm`: the planner that made it.
  // What it learns and re-plans goes to `reporter` (null: nowhere). Throws std::logic_error for a plan task that is
  // not in the batch.
  LaunchReplanner(const config::Workload& batch, const sim::LaunchPlan& plan, std::set<std::string> guessed_tasks,
                  BatchKnowledge known, LearningOptions options, std::optional<NodeBandwidth> bandwidth,
                  const sched::Algorithm& algorithm, Reporter* reporter);

  [[nodiscard]] std::optional<sim::Replan> task_ended(std::size_t task, const sim::EngineView& view,
                                                      const sim::StandingList& standing) override;

  [[nodiscard]] std::size_t replans() const noexcept { return replans_; }
  [[nodiscard]] const BatchKnowledge& known() const noexcept { return known_; }

 private:
  struct Candidate {
    sim::Replan replan;
    std::vector<std::string> moves;  // tasks whose allocation it changes, in words
    double rest_s = 0.0;             // the rest of the launch with it, predicted from now
    double standing_rest_s = 0.0;    // the same with the plan as it stands
  };
  [[nodiscard]] Candidate replan(const sim::EngineView& view, const sim::StandingList& standing) const;

  const config::Workload& batch_;
  std::vector<std::size_t> batch_task_;  // per plan task, its index in batch_.tasks
  std::set<std::string> guessed_tasks_;  // the plan's tasks timed at a guess, by id
  std::vector<const KindState*> guessed_;  // the kinds the plan guessed at (in known_)
  BatchKnowledge known_;
  LearningOptions options_;
  std::optional<NodeBandwidth> bandwidth_;
  const sched::Algorithm& algorithm_;
  Reporter* reporter_;
  std::size_t replans_ = 0;
};

}  // namespace cosched::profiler
