#include "cosched/knowledge/makespan_interval.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

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
  if (!options.error_groups.empty() && options.error_groups.size() != plan.tasks.size()) {
    throw UsageError(fmt::format("{} error groups for a plan of {} tasks", options.error_groups.size(),
                                 plan.tasks.size()));
  }
  const auto check_bounds = [&](const std::vector<double>& bounds, const char* what) {
    if (!bounds.empty() && bounds.size() != plan.tasks.size()) {
      throw UsageError(fmt::format("{} {} bounds for a plan of {} tasks", bounds.size(), what, plan.tasks.size()));
    }
    for (const double bound : bounds) {
      if (!(std::isfinite(bound) && bound >= 0.0)) {
        throw UsageError(fmt::format("a task's {} bound must be finite and >= 0", what));
      }
    }
  };
  check_bounds(options.log_gain_bound, "gain");
  check_bounds(options.co_running_log_bound, "co-running");
}

bool any_positive(const std::vector<double>& values) {
  return std::any_of(values.begin(), values.end(), [](double value) { return value > 0.0; });
}

// Per task of a predicted launch, the share of its run during which some other task runs too.
std::vector<double> co_running_shares(const sim::EngineResult& predicted) {
  std::vector<double> shares(predicted.runs.size(), 0.0);
  for (std::size_t j = 0; j < predicted.runs.size(); ++j) {
    const double start = predicted.runs[j].launch.start;
    const double end = predicted.runs[j].completion.end;
    if (!(end > start)) continue;
    std::vector<std::pair<double, double>> beside;  // the other runs, clipped to this one's
    for (std::size_t k = 0; k < predicted.runs.size(); ++k) {
      const double from = std::max(start, predicted.runs[k].launch.start);
      const double to = std::min(end, predicted.runs[k].completion.end);
      if (k != j && to > from) beside.emplace_back(from, to);
    }
    std::sort(beside.begin(), beside.end());
    double covered = 0.0;
    double reached = start;
    for (const auto& [from, to] : beside) {
      covered += std::max(0.0, to - std::max(from, reached));
      reached = std::max(reached, to);
    }
    shares[j] = covered / (end - start);
  }
  return shares;
}

// A uniform draw on [0, 1] from a standard normal one (its distribution function).
double uniform_of(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// Task j's error group: its own (its index) when none is given. A group number may be anything: numbers are
// compacted so that the draws per sample are as many as the groups.
std::vector<std::size_t> group_index(const IntervalOptions& options, std::size_t tasks, std::size_t& groups) {
  std::vector<std::size_t> index(tasks);
  std::vector<std::size_t> seen;
  for (std::size_t j = 0; j < tasks; ++j) {
    const std::size_t group = options.error_groups.empty() ? j : options.error_groups[j];
    const auto found = std::find(seen.begin(), seen.end(), group);
    index[j] = static_cast<std::size_t>(found - seen.begin());
    if (found == seen.end()) seen.push_back(group);
  }
  groups = seen.size();
  return index;
}

constexpr std::uint64_t kSigmaStream = 0x9e3779b97f4a7c15ULL;

// How much larger than sigma the node's factor may be because sigma is itself estimated: sqrt(k / chi2_k), k the
// estimate's degrees of freedom, so that the factor's ln is sigma times a Student's t with k degrees of freedom — a
// new launch's predictive distribution when sigma is the root mean square of k earlier ones. 1 when sigma is known.
double sigma_uncertainty(const IntervalOptions& options, NormalDraws& draws) {
  if (options.launch_noise_dof == 0) return 1.0;
  double chi2 = 0.0;
  for (std::size_t k = 0; k < options.launch_noise_dof; ++k) {
    const double z = draws.next();
    chi2 += z * z;
  }
  return std::sqrt(static_cast<double>(options.launch_noise_dof) / chi2);
}

}  // namespace

MakespanDistribution makespan_distribution(const sim::LaunchPlan& plan, std::span<const double> task_log_sd,
                                           const IntervalOptions& options) {
  check_interval_input(plan, task_log_sd, options);
  MakespanDistribution result;
  const sim::EngineResult nominal = sim::predict_contention(plan, options.policy);
  result.nominal = nominal.observed_makespan;
  const bool co_running = any_positive(options.co_running_log_bound);
  const std::vector<double> shares = co_running ? co_running_shares(nominal) : std::vector<double>{};
  result.quantiles = options.quantiles;
  std::size_t groups = 0;
  const std::vector<std::size_t> group_of = group_index(options, plan.tasks.size(), groups);
  const bool gains = any_positive(options.log_gain_bound);
  // The makespans of `samples` simulated runs, from the seed's draws: the same draws whether or not the co-running
  // slowdown is allowed, so that the two sets differ by the slowdown alone.
  const auto sample_makespans = [&](bool slowdown_allowed) {
    NormalDraws draws(options.seed);
    NormalDraws sigma_draws(options.seed ^ kSigmaStream);  // apart, so that the other draws stay as they were
    std::vector<double> makespans;
    makespans.reserve(options.samples);
    sim::LaunchPlan drawn = plan;
    std::vector<double> group_draw(groups);
    std::vector<double> group_gain(groups, 0.0);  // u per group, drawn only when some task has a gain bound
    for (std::size_t s = 0; s < options.samples; ++s) {
      const double node = options.launch_noise_sigma * draws.next() * sigma_uncertainty(options, sigma_draws);
      for (double& z : group_draw) z = draws.next();
      if (gains) {
        for (double& u : group_gain) u = uniform_of(draws.next());
      }
      const double slowdown = co_running ? uniform_of(draws.next()) : 0.0;
      for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
        const double gain = gains ? options.log_gain_bound[j] * group_gain[group_of[j]] : 0.0;
        const double slower =
            co_running && slowdown_allowed ? options.co_running_log_bound[j] * slowdown * shares[j] : 0.0;
        const double factor = std::exp(task_log_sd[j] * group_draw[group_of[j]] - gain + slower);
        drawn.tasks[j].predicted_duration = plan.tasks[j].predicted_duration * factor;
        for (std::size_t q = 0; q < plan.tasks[j].flow.bytes_per_s.size(); ++q) {
          drawn.tasks[j].flow.bytes_per_s[q] = plan.tasks[j].flow.bytes_per_s[q] / factor;
        }
      }
      // The node's factor scales the whole launch — its memory pools too, which is how a slower memory phase
      // slows it — so it multiplies the makespan. Put on the tasks alone, the pools absorbed it: a launch whose
      // pool is saturated kept its makespan whatever the factor, and the demo's intervals held 38 of 90 launches.
      makespans.push_back(std::exp(node) * sim::predict_contention(drawn, options.policy).observed_makespan);
    }
    return makespans;
  };
  const std::vector<double> makespans = sample_makespans(true);
  double sum = 0.0;
  for (const double makespan : makespans) sum += makespan;
  result.mean = sum / static_cast<double>(options.samples);
  // The co-running slowdown is a bias of known sign and unknown size, not a noise: the quantiles below the median
  // are taken without it (it may be none: tasks that do not contend, as the Debian compressors on this VM ran
  // 0.91-1.03 x their prediction side by side), the median and above with it up to its bound. Drawn as a noise on
  // both sides, it lifted an interval whose tasks all co-run above the prediction made without it.
  const std::vector<double> unslowed = co_running ? sample_makespans(false) : std::vector<double>{};
  for (const double q : options.quantiles) {
    result.values.push_back(sample_quantile(co_running && q < 0.5 ? unslowed : makespans, q));
  }
  return result;
}

MakespanInterval stated_interval(const sim::LaunchPlan& plan, std::span<const double> task_log_sd,
                                 IntervalOptions options) {
  options.quantiles = {(1.0 - kStatedCoverage) / 2.0, (1.0 + kStatedCoverage) / 2.0};
  const MakespanDistribution distribution = makespan_distribution(plan, task_log_sd, options);
  return {distribution.values[0], distribution.values[1]};
}

}  // namespace cosched::knowledge
