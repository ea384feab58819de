#include "cosched/sim/gantt.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "cosched/sched/resource_kinds.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::sim {

namespace {

constexpr std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

char letter_of(std::size_t task) { return task < kLetters.size() ? kLetters[task] : '#'; }

std::size_t cores_index(const LaunchPlan& plan) {
  for (std::size_t i = 0; i < plan.resource_names.size(); ++i) {
    if (sched::is_cores_resource(plan.resource_names[i])) return i;
  }
  return 0;
}

}  // namespace

std::string gantt_chart(const LaunchPlan& plan, const EngineResult& run, std::size_t width) {
  width = std::max<std::size_t>(width, 10);
  const std::size_t resource = cores_index(plan);
  const auto cores = plan.capacities.empty() ? std::size_t{0} : static_cast<std::size_t>(plan.capacities[resource]);
  std::vector<std::size_t> started;  // the tasks that ran, in start order
  for (std::size_t j = 0; j < run.runs.size(); ++j) {
    if (run.runs[j].state == TaskState::done) started.push_back(j);
  }
  std::stable_sort(started.begin(), started.end(), [&](std::size_t a, std::size_t b) {
    return run.runs[a].launch.start < run.runs[b].launch.start;
  });
  const double span = std::max(run.observed_makespan, 1e-9);
  // Each core's row; a task takes the lowest cores free at its start.
  std::vector<std::string> rows(cores, std::string(width, '.'));
  std::vector<double> free_at(cores, 0.0);
  const double epsilon = 1e-9 * span;
  std::string legend;
  for (const std::size_t j : started) {
    const TaskRun& task = run.runs[j];
    const double start = task.launch.start, end = task.completion.end;
    const auto amount = static_cast<std::size_t>(task.grant.amounts.empty()
                                                     ? plan.tasks[j].demand.at(resource)
                                                     : task.grant.amounts.at(resource));
    std::vector<std::size_t> held;
    for (std::size_t c = 0; c < cores && held.size() < amount; ++c) {
      if (free_at[c] <= start + epsilon) held.push_back(c);
    }
    const auto first = static_cast<std::size_t>(start / span * static_cast<double>(width));
    const auto last = std::max(first + 1, static_cast<std::size_t>(end / span * static_cast<double>(width) + 0.5));
    for (const std::size_t c : held) {
      free_at[c] = end;
      for (std::size_t x = first; x < std::min(last, width); ++x) rows[c][x] = letter_of(j);
    }
    std::vector<std::string> amounts;
    for (std::size_t i = 0; i < plan.resource_names.size(); ++i) {
      amounts.push_back(fmt::format("{} {}", plan.tasks[j].demand.at(i), plan.resource_names[i]));
    }
    legend += fmt::format("  {} {} ({}): {:.3f} .. {:.3f} s\n", letter_of(j), plan.tasks[j].id,
                          fmt::join(amounts, ", "), start, end);
  }
  std::string text;
  const std::string axis = fmt::format("0 s{:>{}}", fmt::format("{:.3f} s", run.observed_makespan), width - 3);
  text += fmt::format("{:>9} {}\n", "", axis);
  for (std::size_t c = 0; c < cores; ++c) text += fmt::format("{:>9} |{}|\n", fmt::format("core {}", c), rows[c]);
  return text + legend;
}

PlanPrediction predict_plan(const LaunchPlan& plan) {
  PlanPrediction prediction{predict(plan, "auto"), std::nullopt, plan.lower_bound};
  if (!plan.bandwidth.empty()) prediction.contention = predict_contention(plan, "auto");
  return prediction;
}

nlohmann::json to_json(const PlanPrediction& prediction) {
  return {{"lower_bound", prediction.lower_bound},
          {"predicted_makespan_paper", prediction.paper.observed_makespan},
          {"predicted_makespan_contention", prediction.contention
                                                ? nlohmann::json(prediction.contention->observed_makespan)
                                                : nlohmann::json()}};
}

std::string format_prediction(const LaunchPlan& plan, const PlanPrediction& prediction) {
  const auto& contention = prediction.contention;
  return fmt::format("predicted makespan {:.3f} s ({}){}; lower bound L_min(d) {:.3f} s\n",
                     prediction.leading().observed_makespan,
                     contention ? "contention-aware" : "paper model; no bandwidth model for the contention-aware one",
                     contention ? fmt::format(", {:.3f} s by the paper model", prediction.paper.observed_makespan) : "",
                     prediction.lower_bound) +
         gantt_chart(plan, prediction.leading());
}

std::string format_prediction(const LaunchPlan& plan) { return format_prediction(plan, predict_plan(plan)); }

}  // namespace cosched::sim
