#include "cosched/sim/prediction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/sim/resources.hpp"
#include "cosched/sim/clocks/contention_clock.hpp"
#include "cosched/sim/clocks/simulated_clock.hpp"
#include "cosched/sim/policies.hpp"
#include "sim/counting_pool.hpp"

namespace cosched::sim {

std::optional<double> prediction_error(double observed, std::optional<double> predicted) {
  if (!predicted || !(*predicted > 0.0)) return std::nullopt;
  return observed / *predicted - 1.0;
}

namespace {

std::string times_bound(double seconds, double lower_bound) {
  return lower_bound > 0.0 ? fmt::format("  ({:.3f} x L_min)", seconds / lower_bound) : std::string();
}

std::string percent(std::optional<double> error) {
  return error ? fmt::format("{:+.1f} %", *error * 100.0) : std::string("n/a");
}

}  // namespace

std::string format_makespans(const MakespanComparison& m) {
  std::string text;
  // 0: unknown (an online workload has no offline lower bound; older schedule files carry none).
  if (m.lower_bound > 0.0) text += fmt::format("lower bound L_min(d)   {:.3f} s\n", m.lower_bound);
  text += fmt::format("predicted makespan     {:.3f} s{}  paper model: each task at its profiled time\n",
                      m.predicted_paper, times_bound(m.predicted_paper, m.lower_bound));
  if (m.predicted_contention) {
    text += fmt::format("  contention-aware     {:.3f} s{}  fluid model: co-runners share memory bandwidth\n",
                        *m.predicted_contention, times_bound(*m.predicted_contention, m.lower_bound));
  } else {
    text += "  contention-aware     unavailable (no bandwidth model)\n";
  }
  text += fmt::format("observed makespan      {:.3f} s{}\n", m.observed, times_bound(m.observed, m.lower_bound));
  const double ratio = m.predicted_paper > 0.0 ? m.observed / m.predicted_paper : 0.0;
  text += fmt::format("observed / predicted   {:.4f}  error {} (paper model){}\n", ratio,
                      percent(prediction_error(m.observed, m.predicted_paper)),
                      m.predicted_contention
                          ? fmt::format(", {} (contention-aware)",
                                        percent(prediction_error(m.observed, m.predicted_contention)))
                          : std::string());
  return text;
}

namespace {

EngineResult run_on(const LaunchPlan& plan, std::string_view policy_name, Clock& clock) {
  auto policy = make_policy(policy_name, plan);
  CountingPool pool(plan.capacities);
  return run_engine(plan, *policy, clock, pool);
}

}  // namespace

EngineResult predict(const LaunchPlan& plan, std::string_view policy_name) {
  SimulatedClock clock(plan);
  return run_on(plan, policy_name, clock);
}

EngineResult predict_contention(const LaunchPlan& plan, std::string_view policy_name) {
  ContentionClock clock(plan);
  return run_on(plan, policy_name, clock);
}

double running_time_left(double predicted, double elapsed) {
  constexpr double kOverrunShare = 0.1;
  constexpr double kLeast = 1e-6;
  const double left = std::isfinite(predicted) ? std::max(predicted - elapsed, kOverrunShare * predicted) : elapsed;
  return std::max(left, kLeast);
}

double greedy_rest_seconds(const std::vector<std::string>& resource_names, const std::vector<int>& capacities,
                           const std::vector<RestTask>& running, const std::vector<RestTask>& pending) {
  LaunchPlan rest;
  rest.algorithm = "rest";
  rest.launch_rule = "greedy";
  rest.resource_names = resource_names;
  rest.capacities = capacities;
  for (const RestTask& task : running) rest.tasks.push_back({task.id, task.demand, 0.0, task.seconds});
  for (const RestTask& task : pending) {
    if (!std::isfinite(task.seconds)) return std::numeric_limits<double>::infinity();
    rest.tasks.push_back({task.id, task.demand, 0.0, task.seconds});
  }
  return predict(rest, "greedy").observed_makespan;
}

}  // namespace cosched::sim
