#include "cosched/knowledge/work_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "cosched/common/error.hpp"
#include "knowledge/least_squares.hpp"

namespace cosched::knowledge {

WorkScalingFit::WorkScalingFit(const std::vector<WorkSample>& samples, const FitOptions& options) {
  std::set<double> amounts;
  for (const WorkSample& sample : samples) {
    if (!(std::isfinite(sample.work) && sample.work > 0.0)) throw InputError("work scaling", "an amount not > 0");
    if (!(std::isfinite(sample.seconds) && sample.seconds > 0.0)) {
      throw InputError("work scaling", "a time that is not finite and > 0");
    }
    amounts.insert(sample.work);
  }
  if (amounts.size() < 2) throw InputError("work scaling", "runs at two amounts of work at least are needed");
  amounts_.assign(amounts.begin(), amounts.end());

  std::vector<detail::WeightedRow> rows(samples.size());
  std::vector<double> fitted(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    rows[i] = {{1.0, samples[i].work}, samples[i].seconds, 1.0};
    fitted[i] = samples[i].seconds;
  }
  detail::BoundedSolution solution;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < samples.size(); ++i) rows[i].weight = 1.0 / (fitted[i] * fitted[i]);
    solution = detail::solve_bounded(rows, {true, true});
    if (!solution.solved) {
      throw InputError("work scaling", "the runs do not separate a fixed cost from a cost per unit");
    }
    for (std::size_t i = 0; i < samples.size(); ++i) {
      fitted[i] = std::max(solution.theta[0] + solution.theta[1] * samples[i].work, 1e-300);
    }
  }
  fixed_ = solution.theta[0];
  per_unit_ = solution.theta[1];
  double rss = 0.0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double residual = std::log(samples[i].seconds / fitted[i]);
    rss += residual * residual;
  }
  std::size_t free = 0;
  for (const bool held : solution.held) free += held ? 0 : 1;
  const double floor2 = options.noise_floor * options.noise_floor;
  const double noise2 = (rss + options.prior_weight * floor2) /
                        (std::max(0.0, static_cast<double>(samples.size() - free)) + options.prior_weight);
  noise_log_sd_ = std::sqrt(noise2);
  covariance_ = solution.inverse_normal;
  for (double& value : covariance_) value *= noise2;
}

double carried_log_sd_bound(double measured_work, double work, double noise_log_sd) {
  return std::hypot(std::log(work / measured_work), noise_log_sd);
}

CurvePoint WorkScalingFit::predict(double work) const {
  const double seconds = fixed_ + per_unit_ * work;
  const double variance = detail::quadratic_form(covariance_, {1.0, work});
  double nearest = amounts_.front();
  for (const double amount : amounts_) {
    if (std::abs(std::log(work / amount)) < std::abs(std::log(work / nearest))) nearest = amount;
  }
  const double bound = carried_log_sd_bound(nearest, work, noise_log_sd_);
  return {seconds, seconds > 0.0 ? std::min(std::sqrt(variance) / seconds, bound) : bound};
}

}  // namespace cosched::knowledge
