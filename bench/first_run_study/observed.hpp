#pragma once
// What first_run_study watches of a re-planned launch (first_run.hpp): the replanner's wall time, the default
// planner's searches inside it, and where the launch started its tasks against the naive launch.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/profiler/launch_replanner.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/replanning.hpp"
#include "first_run_study/first_run.hpp"

namespace cosched::bench {

// The replanner as the launch sees it, timed: its planning is wall time the cores a task freed wait for.
class TimedReplanner final : public sim::Replanner {
 public:
  explicit TimedReplanner(profiler::LaunchReplanner& inner) : inner_(inner) {}
  [[nodiscard]] std::optional<sim::Replan> task_ended(std::size_t task, const sim::EngineView& view,
                                                      const sim::StandingList& standing) override;
  [[nodiscard]] double seconds() const noexcept { return seconds_; }  // over every task it was shown
  [[nodiscard]] double longest() const noexcept { return longest_; }  // its longest call

 private:
  profiler::LaunchReplanner& inner_;
  double seconds_ = 0.0;
  double longest_ = 0.0;
};

// The default planner (model-search) as the replanner calls it — sim::ModelSearch::schedule_within: model_search
// within the limits it is given —, counting its searches. With `max_evaluations` > 0 each search stops at that
// many candidates (or converged) within a wall-time budget it never reaches instead: the same re-plans on any
// machine.
class ObservedModelSearch final : public sched::Algorithm {
 public:
  struct Seen {
    std::size_t searches = 0;
    std::size_t evaluations = 0;  // candidates, over all searches
    std::size_t stopped_by_budget = 0;
    double budget_ms = 0.0;  // the budget they had
  };

  explicit ObservedModelSearch(std::size_t max_evaluations) : max_evaluations_(max_evaluations) {}
  [[nodiscard]] std::string_view name() const override;
  [[nodiscard]] bool searches() const override { return true; }
  [[nodiscard]] std::string refusal(const sched::Instance& instance) const override;
  [[nodiscard]] sched::Schedule schedule(const sched::Instance& instance) const override;
  [[nodiscard]] sched::Schedule schedule_within(const sched::Instance& instance,
                                                const sched::SearchLimits& limits) const override;
  [[nodiscard]] const Seen& seen() const noexcept { return seen_; }

 private:
  std::size_t max_evaluations_;
  mutable Seen seen_;  // counted as it plans (schedule_within is const)
};

// A wall-time budget no search of the study reaches: it stops at its evaluations, or converged.
inline constexpr double kGenerousBudgetMs = 60000.0;

// The core-seconds a launch on `cores` left idle while tasks still waited to start (before its last start): a task
// at the head of a greedy list that needs more cores than are free holds the list behind it (sim/policies.hpp); the
// naive plan's tasks of one core never do.
[[nodiscard]] double idle_while_waiting(const sim::EngineResult& launch, int cores);

// Where `replanned` started each task against `naive` (the same plan's tasks), by whether its kind (`kind`: per plan
// task) was known by then — a task of the kind had ended in `replanned` —; the first wave (0 s in both) left out.
void count_start_shifts(const std::vector<std::size_t>& kind, const sim::EngineResult& naive,
                        const sim::EngineResult& replanned, StartShift& known, StartShift& guessed);

}  // namespace cosched::bench
