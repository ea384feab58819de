#pragma once
// Which runs to measure next for a task: one small interface, registered by name.
//   exhaustive  every core count 1..P at 0, half and all the fast chunks, twice, at the production amount of work:
//               what `cosched run` profiles today (profiler/src/launched_profile.cpp)
//   sparse      a few core counts (P, P/2, P/4, ... 1), once each, and 0 / half / all chunks at one reference
//               count (the one nearest P/4) with a second run there for the noise: the rest is fitted
//   short-runs  the sparse points at the task's two smallest profiling amounts of work (grown in proportion to
//               the cores above the reference count, so that a run's fixed cost does not drown its work), fast
//               memory at the larger amount alone (task_fit.hpp brings them all to the production amount); a task
//               that cannot be shortened gets the sparse points
//   adaptive    first three counts (P, the reference count and a quarter of it) as short runs, fast memory at
//               the reference count; then, once a plan is known, more points
//               only where the plan's choice depends on them: the task's planned core count and its neighbours on
//               the grid (halving, doubling) when the fit there is less certain than `tolerance` and — for a
//               neighbour — its interval of area (cores x time) overlaps the planned allocation's
// A strategy is asked again after each round of measurements; an empty answer means it has what it wants. Runs
// come cheapest first (most cores, least work), each with the cost what is known so far predicts, so a caller can
// stop within a profiling budget.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/knowledge/measurement.hpp"
#include "cosched/knowledge/task_fit.hpp"

namespace cosched::knowledge {

struct StrategyOptions {
  int repetitions = 2;       // exhaustive: runs per point
  double tolerance = 0.03;   // adaptive: sd of ln t below which a point need not be measured
};

// The allocation a plan gives the task (adaptive's second and later rounds).
struct PlannedAllocation {
  int cores = 1;
  int fast_chunks = 0;
};

struct StrategyInput {
  NodeShape node;
  TaskWork work;
  std::vector<Measurement> known;                 // every run of the task so far
  const FittedTask* fit = nullptr;                // the fit of `known`, when there is one
  std::optional<PlannedAllocation> planned;       // where the current plan puts the task, when there is a plan
  StrategyOptions options;
};

class MeasurementStrategy {
 public:
  virtual ~MeasurementStrategy() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // The runs to measure now (cheapest first); empty when the strategy is done with the task.
  [[nodiscard]] virtual std::vector<PlannedRun> next_runs(const StrategyInput& input) const = 0;
};

[[nodiscard]] const std::vector<const MeasurementStrategy*>& measurement_strategies();
[[nodiscard]] std::vector<std::string> measurement_strategy_names();
// Throws UsageError listing the known names.
[[nodiscard]] const MeasurementStrategy& find_measurement_strategy(std::string_view name);

// The core counts P, P/2, P/4, ... down to 1 (rounded, distinct, descending); `step` 4 gives P, P/4, P/16, ... 1.
[[nodiscard]] std::vector<int> halving_cores(int cores, int step = 2);
// The sum of the runs' estimated costs (NaN when one of them is unknown).
[[nodiscard]] double estimated_cost(const std::vector<PlannedRun>& runs);
// The first short runs of a task nothing is known of: `strategy`'s cheapest run for `input` and the same point at
// the next amount it offers. Two amounts at one point separate a run's fixed cost from its cost per unit
// (work_scaling.hpp), without which runs at a small amount are not carried to production
// (TaskFitOptions::max_proportional_carry). Empty when the strategy offers no such pair (a task without profiling
// amounts). `cosched run` measures them before a batch with nothing known is planned (profiler/learning.hpp).
[[nodiscard]] std::vector<PlannedRun> first_short_runs(const MeasurementStrategy& strategy, const StrategyInput& input);

}  // namespace cosched::knowledge
