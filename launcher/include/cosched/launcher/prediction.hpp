#pragma once
// The two predictions of a launch, side by side with what was observed — the same lines in `cosched launch`'s
// summary and in `cosched report`:
//   paper model       the schedule on the simulated clock: each task takes its profiled time (Sec. 3);
//   contention-aware  the schedule on the contention clock: co-running tasks share the memory pools (fluid model,
//                     clocks/contention_clock.hpp); unavailable without a bandwidth model.
#include <optional>
#include <string>

namespace cosched::launcher {

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

}  // namespace cosched::launcher
