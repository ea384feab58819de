#pragma once
// The two predictions of a launch, side by side with what was observed — the same lines in `cosched launch`'s
// summary and in `cosched report`:
//   paper model       the schedule on the simulated clock: each task takes its profiled time (Sec. 3);
//   contention-aware  the schedule on the contention clock: co-running tasks share the memory pools (fluid model,
//                     clocks/contention_clock.hpp); unavailable without a bandwidth model.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sim/engine.hpp"

namespace cosched::sim {

struct MakespanComparison {
  double lower_bound = 0.0;  // L_min(d), 0 when unknown
  double predicted_paper = 0.0;
  std::optional<double> predicted_contention;  // nullopt: no bandwidth model
  double observed = 0.0;
};

// observed / predicted - 1 (the signed relative error of a prediction); nullopt when there is no prediction or
// it is not > 0.
[[nodiscard]] std::optional<double> prediction_error(double observed, std::optional<double> predicted);

// Lower bound, both predicted makespans, the observed one, and the error of each prediction, one per line.
[[nodiscard]] std::string format_makespans(const MakespanComparison& makespans);

// The predicted run: the plan on the simulated clock with the policy it will run with (the paper model).
[[nodiscard]] EngineResult predict(const LaunchPlan& plan, std::string_view policy);
// The contention-aware prediction: the plan on the contention clock with the policy it will run with. Without a
// bandwidth model (or without traffic) it is predict()'s run, time for time.
[[nodiscard]] EngineResult predict_contention(const LaunchPlan& plan, std::string_view policy);

// What is left of a running task predicted to take `predicted` s that has run `elapsed` s: the difference; a tenth
// of the prediction when it should have ended already (its resources stay busy a while, neither freed at once nor
// for as long as it ran); its elapsed time when nothing finite was predicted. At least 1 us.
[[nodiscard]] double running_time_left(double predicted, double elapsed);

// A task of what is left of a launch: where it runs, and for how long from now.
struct RestTask {
  std::string id;
  std::vector<int> demand;
  double seconds = 0.0;
};
// What is left of a launch as the greedy rule runs it from now (replanning.hpp: a re-plan weighed against the plan
// as it stands): the `running` tasks where they are, then the `pending` ones in this order, over the plan's
// resources. +inf when a pending task's time is not finite (it cannot run where it is put).
[[nodiscard]] double greedy_rest_seconds(const std::vector<std::string>& resource_names,
                                         const std::vector<int>& capacities, const std::vector<RestTask>& running,
                                         const std::vector<RestTask>& pending);

}  // namespace cosched::sim
