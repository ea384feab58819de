#include "cosched/knowledge/makespan_interval.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/random.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::knowledge {

namespace {

void check_interval_input(const sim::LaunchPlan& plan, std::span<const double> task_log_sd,
                          const IntervalOptions& options) {
  if (options.samples == 0) throw UsageError("a makespan distribution needs at least one sample");
  for (const double q : options.quantiles) {
    if (!(q >= 0.0 && q <= 1.0)) throw UsageError(fmt::format("quantile {} is not in [0, 1]", q));
  }
  if (!(std::isfinite(options.launch_noise_sigma) && options.launch_noise_sigma >= 0.0)) {
    throw UsageError("the launch-noise sigma must be finite and >= 0");
  }
  if (task_log_sd.size() != plan.tasks.size()) {
    throw UsageError(fmt::format("{} task uncertainties for a plan of {} tasks", task_log_sd.size(),
                                 plan.tasks.size()));
  }
  for (const double sd : task_log_sd) {
    if (!(std::isfinite(sd) && sd >= 0.0)) throw UsageError("a task's sd of ln t must be finite and >= 0");
  }
}

}  // namespace

MakespanDistribution makespan_distribution(const sim::LaunchPlan& plan, std::span<const double> task_log_sd,
                                           const IntervalOptions& options) {
  check_interval_input(plan, task_log_sd, options);
  MakespanDistribution result;
  result.nominal = sim::predict_contention(plan, options.policy).observed_makespan;
  result.quantiles = options.quantiles;
  NormalDraws draws(options.seed);
  std::vector<double> makespans;
  makespans.reserve(options.samples);
  sim::LaunchPlan drawn = plan;
  double sum = 0.0;
  for (std::size_t s = 0; s < options.samples; ++s) {
    const double node = options.launch_noise_sigma * draws.next();
    for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
      const double factor = std::exp(node + task_log_sd[j] * draws.next());
      drawn.tasks[j].predicted_duration = plan.tasks[j].predicted_duration * factor;
      for (std::size_t q = 0; q < plan.tasks[j].flow.bytes_per_s.size(); ++q) {
        drawn.tasks[j].flow.bytes_per_s[q] = plan.tasks[j].flow.bytes_per_s[q] / factor;
      }
    }
    makespans.push_back(sim::predict_contention(drawn, options.policy).observed_makespan);
    sum += makespans.back();
  }
  result.mean = sum / static_cast<double>(options.samples);
  for (const double q : options.quantiles) result.values.push_back(sample_quantile(makespans, q));
  return result;
}

}  // namespace cosched::knowledge
