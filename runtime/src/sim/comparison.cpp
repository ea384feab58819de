#include "cosched/sim/comparison.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "cosched/sched/schedule.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::sim {

namespace {

// The ratio of a value to its lower bound; an instance without tasks has bounds of 0 and no meaningful ratio.
std::string ratio_cell(double value, std::optional<double> bound) {
  return bound && *bound > 0 ? fmt::format("{:.4f}", value / *bound) : "n/a";
}

std::string bound_cell(std::optional<double> bound) { return bound ? fmt::format("{:.6g}", *bound) : "n/a"; }
// "-": the printed LP is infeasible (the tasks cannot all end by 2 C*max), which is not a missing bound.
std::string printed_cell(std::optional<double> value) { return value ? fmt::format("{:.6g}", *value) : "-"; }

// A bound for programs: null where the text says "n/a" or "-".
nlohmann::json optional_json(std::optional<double> value) { return value ? nlohmann::json(*value) : nlohmann::json(); }

}  // namespace

void report_comparison(Reporter& reporter, const sched::Instance& instance, const sched::ComparisonBounds& bounds,
                       const ComparisonOptions& options) {
  const sched::SearchLimits& limits = options.limits;
  const bool announce = instance.task_count() >= options.announce_from_tasks;
  std::size_t position = 0;
  const bool contention = !instance.bandwidth().empty();
  reporter.result({"comparison-header",
                   fmt::format("{:<16} {:>14} {:>14} {:>8} {:>12}{} {:>14} {:>14} {:>8} {:>14} {:>14} {:>14}\n",
                               "algorithm", "makespan", "L_min(d)", "ratio", "time (s)",
                               contention ? fmt::format(" {:>14}", "contention") : std::string(), "sum_w_C",
                               "LP_bound", "w_ratio", "two_shelf_LB", "LP_paper", "LP_printed"),
                   {{"lower_bound", bounds.makespan},
                    {"lp_bound", optional_json(bounds.weighted)},
                    {"two_shelf_bound", optional_json(bounds.two_shelf)},
                    {"lp_paper", optional_json(bounds.weighted_paper_cost)},
                    {"lp_printed", optional_json(bounds.weighted_printed)}}});
  for (const sched::Algorithm* algorithm : algorithms()) {
    ++position;
    if (std::find(options.skip.begin(), options.skip.end(), algorithm->name()) != options.skip.end()) {
      reporter.result({"comparison-skipped", fmt::format("{:<12} skipped: --skip\n", algorithm->name()),
                       {{"algorithm", algorithm->name()}, {"reason", "--skip"}}});
      continue;
    }
    // An algorithm that does not apply to this instance (bsp-a1..a4 on two resources) gets a note, not a row.
    if (const std::string reason = algorithm->refusal(instance); !reason.empty()) {
      reporter.result({"comparison-skipped", fmt::format("{:<12} skipped: {}\n", algorithm->name(), reason),
                       {{"algorithm", algorithm->name()}, {"reason", reason}}});
      continue;
    }
    if (announce) {
      reporter.note(fmt::format("planning {} tasks with {} ({} of {}; --skip {} leaves it out)", instance.task_count(),
                                algorithm->name(), position, algorithms().size(), algorithm->name()));
    }
    const auto result = sched::plan(*algorithm, instance, bounds.makespan, limits);
    const double weighted = sched::weighted_completion_sum(instance, result.schedule.tasks);
    const std::string ratio = ratio_cell(result.schedule.makespan, bounds.makespan);
    std::string predicted;
    nlohmann::json data = {{"algorithm", algorithm->name()},
                           {"makespan", result.schedule.makespan},
                           {"seconds", result.seconds},
                           {"sum_w_c", weighted}};
    if (contention) {
      const auto plan = plan_from_schedule(instance, result.schedule);
      const double makespan = predict_contention(plan, "auto").observed_makespan;
      predicted = fmt::format(" {:>14.6g}", makespan);
      data["contention_makespan"] = makespan;
    }
    reporter.result({"comparison-row",
                     fmt::format("{:<16} {:>14.6g} {:>14.6g} {:>8} {:>12.6f}{} {:>14.6g} {:>14} {:>8} {:>14} {:>14} "
                                 "{:>14}\n",
                                 algorithm->name(), result.schedule.makespan, bounds.makespan, ratio, result.seconds,
                                 predicted, weighted, bound_cell(bounds.weighted),
                                 ratio_cell(weighted, bounds.weighted), bound_cell(bounds.two_shelf),
                                 bound_cell(bounds.weighted_paper_cost), printed_cell(bounds.weighted_printed)),
                     std::move(data)});
  }
}

}  // namespace cosched::sim
