#pragma once
// A run of a plan as a text picture, for a terminal (`cosched run --dry-run` draws the predicted run): one row per
// core, time left to right, each task a letter on the cores it holds, and a legend of the letters. The run's
// tasks are put on the lowest free cores in start order (a plan names how many cores a task gets, not which; the
// launcher's allocator packs them the same compact way), as scripts/plot_gantt.py draws a journal.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"

namespace cosched::sim {

// `run` is `plan` run by the engine (a prediction: sim::predict or predict_contention). `width` columns of time
// (at least 10). A plan without a cores resource is drawn on its first resource.
[[nodiscard]] std::string gantt_chart(const LaunchPlan& plan, const EngineResult& run, std::size_t width = 72);

// What a plan predicts: its run by the paper model and, when the plan has a bandwidth model, the contention-aware
// run, with the lower bound.
struct PlanPrediction {
  EngineResult paper;
  std::optional<EngineResult> contention;
  double lower_bound = 0.0;
  // The run the prediction leads with: the contention-aware one when there is one.
  [[nodiscard]] const EngineResult& leading() const { return contention ? *contention : paper; }
};
[[nodiscard]] PlanPrediction predict_plan(const LaunchPlan& plan);

// The prediction for programs: {"lower_bound", "predicted_makespan_paper", "predicted_makespan_contention" (null
// without a bandwidth model)}.
[[nodiscard]] nlohmann::json to_json(const PlanPrediction& prediction);

// The prediction for people (`cosched run`): a line with both makespans — the contention-aware one first when the
// plan has a bandwidth model, else the paper model's — and the lower bound, then the predicted run as a picture
// (gantt_chart of the leading run) with its legend.
[[nodiscard]] std::string format_prediction(const LaunchPlan& plan, const PlanPrediction& prediction);
[[nodiscard]] std::string format_prediction(const LaunchPlan& plan);

}  // namespace cosched::sim
