#pragma once
// The model-driven planner (issue 23), registered as `model-search`: a plan chosen under the same contention model
// that predicts it (the contention clock, clocks/contention_clock.hpp), not under the paper model that the other
// algorithms plan with.
//
//   1. Start: every other applicable registered algorithm plans the instance, and each plan is predicted on the
//      contention clock with the policy it will be launched with (predict_contention).
//   2. Search: the plans become candidates — a priority list, one allocation per task, and pairs of tasks that
//      must not co-run. A candidate's plan is its list schedule under the paper model (at time 0 and at every
//      completion, start every waiting task, in list order, whose allocation fits and none of whose excluded
//      partners runs); its score is that plan launched with the list rule on the contention clock — exactly the
//      contention-aware prediction `cosched launch` will print for it. Late acceptance hill climbing from the best
//      of them (moves: move a task in the list, swap two, one step along a task's Pareto front towards shorter
//      times or towards less area, one resource of a task to another amount — off the front too, since an
//      allocation of more area can run on what the others leave idle —, keep two co-running tasks apart or let
//      them co-run again; a candidate is taken when it is no worse than the current one or than the one a fixed
//      number of steps ago, so the walk can cross ridges that one move cannot), in rounds: each later round walks
//      again from the best candidate so far after a few random moves.
//   3. Result: the best candidate's schedule (a list schedule of the paper model, valid by construction),
//      predicted again as a launch would run it; if that prediction is above the best starting plan's, the
//      starting plan itself is returned. So its contention-aware prediction is never above the smallest one of the
//      plans it started from.
//
// Stops when every round has stalled (the best candidate did not improve for a number of evaluations that grows
// with the task count: converged), after a cap of evaluations, or when limits.budget_ms of wall time has passed
// since the start of the call (the starting plans included). The first two are deterministic: a seed gives the same plan whenever
// the search converges or reaches its cap within the budget (SearchOutcome::stopped_by says which).
//
// Without a bandwidth model (or without traffic) the contention clock is the paper model's simulated clock, and
// the search improves the paper-model makespan of the best starting plan.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/algorithm.hpp"

namespace cosched::sim {

inline constexpr std::string_view kModelSearchName = "model-search";
// The largest batch it plans. Its starting plans are every other algorithm's, each predicted on the contention
// clock before the budget can stop anything, and that prediction grows faster than the task count (1.1 s at 1,000
// tasks, 89 s at 10,000 on the 2-core VM under load): past this size `plan --algorithm all` would be slower than
// all the other algorithms together, so model-search refuses (`all` skips it, saying why) rather than overrun
// --budget-ms.
inline constexpr std::size_t kModelSearchMaxTasks = 2000;

struct SearchStart {
  std::string algorithm;
  double predicted_makespan = 0.0;  // contention-aware, launched with its own policy (list or pack)
};

struct SearchOutcome {
  sched::Schedule schedule;          // named model-search
  double predicted_makespan = 0.0;   // contention-aware prediction of `schedule`, launched with its own policy
  std::vector<SearchStart> starts;   // every starting plan, in registry order
  std::string chosen;                // "search", or the starting algorithm whose plan is returned as it was
  std::size_t evaluations = 0;       // candidates decoded
  std::size_t improvements = 0;      // times the best candidate improved
  std::string stopped_by;            // "converged", "evaluations" or "budget"
  double seconds = 0.0;              // wall time of the whole call
};

// Throws UsageError for limits check_search_limits refuses; InputError as the starting algorithms do (a task
// that cannot run).
[[nodiscard]] SearchOutcome model_search(const sched::Instance& instance, const sched::SearchLimits& limits);

class ModelSearch final : public sched::Algorithm {
 public:
  [[nodiscard]] std::string_view name() const override { return kModelSearchName; }
  [[nodiscard]] bool searches() const override { return true; }
  [[nodiscard]] std::string refusal(const sched::Instance& instance) const override;
  [[nodiscard]] sched::Schedule schedule(const sched::Instance& instance) const override;
  [[nodiscard]] sched::Schedule schedule_within(const sched::Instance& instance,
                                                const sched::SearchLimits& limits) const override;
};

}  // namespace cosched::sim
