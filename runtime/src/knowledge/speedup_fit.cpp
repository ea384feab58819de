#include "cosched/knowledge/speedup_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/speedup_models.hpp"
#include "knowledge/least_squares.hpp"

namespace cosched::knowledge {

namespace {

constexpr int kReweightings = 4;  // IRLS passes for the laws in seconds: the weights settle in 2-3

void check_fit_input(const std::vector<CoreSample>& samples, const FitOptions& options) {
  if (samples.empty()) throw InputError("speedup fit", "no measured point");
  for (const CoreSample& sample : samples) {
    if (sample.cores < 1) throw InputError("speedup fit", "a point at " + std::to_string(sample.cores) + " cores");
    if (!(std::isfinite(sample.seconds) && sample.seconds > 0.0)) {
      throw InputError("speedup fit", "a time that is not finite and > 0 at " + std::to_string(sample.cores) +
                                          " cores");
    }
    if (!(std::isfinite(sample.extra_log_variance) && sample.extra_log_variance >= 0.0)) {
      throw InputError("speedup fit", "an extra variance that is not finite and >= 0");
    }
  }
  if (!(options.noise_floor > 0.0 && options.noise_floor < 1.0)) {
    throw InputError("speedup fit", "the noise floor must be in (0, 1)");
  }
  if (!(options.prior_weight >= 0.0 && std::isfinite(options.prior_weight))) {
    throw InputError("speedup fit", "the prior weight must be finite and >= 0");
  }
}

struct LawFit {
  ModelFit summary;
  std::vector<double> covariance;           // of theta, row-major (0 rows/columns where held at a bound)
  std::vector<double> released_covariance;  // the same with the held parameters' spread (speedup_fit.hpp)
  std::vector<double> residuals;   // ln y - ln f, per sample
  double weighted_rss = 0.0;
  std::size_t free = 0;            // parameters not held at their bound
  bool usable = false;
};

LawFit fit_law(const SpeedupModel& law, const std::vector<CoreSample>& samples, const std::vector<double>& weights,
               double noise_floor, double prior_weight) {
  LawFit fit;
  fit.summary.model = std::string(law.name());
  fit.summary.score = std::numeric_limits<double>::infinity();
  std::vector<detail::WeightedRow> rows(samples.size());
  std::vector<double> fitted(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    rows[i].terms = law.terms(samples[i].cores);
    fitted[i] = samples[i].seconds;
  }
  detail::BoundedSolution solution;
  for (int pass = 0; pass < (law.log_space() ? 1 : kReweightings); ++pass) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      rows[i].value = law.log_space() ? std::log(samples[i].seconds) : samples[i].seconds;
      // Relative residuals: (y - f) / f ~ ln y - ln f for the laws in seconds.
      rows[i].weight = law.log_space() ? weights[i] : weights[i] / (fitted[i] * fitted[i]);
    }
    solution = detail::solve_bounded(rows, law.nonnegative());
    if (!solution.solved) return fit;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const double f = law.seconds(solution.theta, samples[i].cores);
      if (!(f > 0.0 && std::isfinite(f))) return fit;
      fitted[i] = f;
    }
  }
  // The curve starts at one core: a law with no time there (every term's parameter on its bound of 0 but one that
  // vanishes at 1, as amdahl-overhead's cost per added core fitted through two neighbouring counts) has no log there
  // and would make every averaged point 0 s, its sd NaN.
  const double at_one = law.seconds(solution.theta, 1.0);
  if (!(at_one > 0.0 && std::isfinite(at_one))) return fit;
  double weight_sum = 0.0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    fit.residuals.push_back(std::log(samples[i].seconds) - std::log(fitted[i]));
    fit.weighted_rss += weights[i] * fit.residuals.back() * fit.residuals.back();
    weight_sum += weights[i];
  }
  for (const bool held : solution.held) fit.free += held ? 0 : 1;
  const auto n = static_cast<double>(samples.size());
  const auto k = static_cast<double>(fit.free);
  const double scale = (fit.weighted_rss + prior_weight * noise_floor * noise_floor) /
                       (std::max(0.0, n - k) + prior_weight);
  fit.covariance = solution.inverse_normal;
  for (double& value : fit.covariance) value *= scale;
  // A serial fraction held at 0 still has its spread (speedup_fit.hpp): without it, the simulated KNL's fits
  // claimed 1 % at 41 cores from runs at 2 and 4 and were 2.8 x off (bench/results/2026-11-30-held-at-bound.md).
  fit.released_covariance = solution.released_inverse_normal;
  for (double& value : fit.released_covariance) value *= scale;
  fit.summary.theta = solution.theta;
  fit.summary.log_rmse = std::sqrt(fit.weighted_rss / weight_sum);
  fit.summary.description = law.describe(solution.theta);
  fit.usable = true;
  return fit;
}

// AICc with the noise taken as known (each residual over its point's variance: one run's noise plus what
// extrapolating it added): chi^2 + 2k + 2k(k+1)/(n-k-1), the last term with n-k-1 at least 1. Known rather than
// estimated per law, so that 3-4 points — a sparse profile — are scored too, without a law that threads them
// exactly winning on a residual of nothing.
double evidence_score(const LawFit& fit, const std::vector<CoreSample>& samples, double noise2) {
  double chi2 = 0.0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    chi2 += fit.residuals[i] * fit.residuals[i] / (noise2 + samples[i].extra_log_variance);
  }
  const auto k = static_cast<double>(fit.free);
  const double n = static_cast<double>(samples.size());
  return chi2 + 2.0 * k + 2.0 * k * (k + 1.0) / std::max(1.0, n - k - 1.0);
}

struct LawMoments {
  double mean = 0.0;               // of ln t
  double variance = 0.0;           // of ln t, the held parameters without spread
  double released_variance = 0.0;  // of ln t, with their spread
};

// Mean of ln t and its variances for one fitted law at `cores`.
LawMoments law_log_moments(const SpeedupModel& law, const ModelFit& fit, const std::vector<double>& covariance,
                           const std::vector<double>& released_covariance, double cores) {
  const std::vector<double> x = law.terms(cores);
  const double value = law.seconds(fit.theta, cores);
  const double to_log = law.log_space() ? 1.0 : 1.0 / (value * value);
  return {std::log(value), detail::quadratic_form(covariance, x) * to_log,
          detail::quadratic_form(released_covariance, x) * to_log};
}

}  // namespace

std::pair<double, double> amdahl_prior_log_ratio(int measured_cores, int cores) {
  if (measured_cores < 1 || cores < 1) throw std::invalid_argument("amdahl_prior_log_ratio: cores below 1");
  // ln(t(p) / t(p0)) = ln(s + (1 - s) / p) - ln(s + (1 - s) / p0), with u = ln s uniform on [ln s_min, 0]:
  // its mean and variance over u by composite Simpson (the integrand is smooth in u; 64 intervals leave an error
  // below 1e-6 on both).
  constexpr int kIntervals = 64;
  const double low = std::log(kOneCountSerialFractionMin);
  const double step = -low / kIntervals;
  const double p = cores;
  const double p0 = measured_cores;
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double s = std::exp(low + step * i);
    const double r = std::log(s + (1.0 - s) / p) - std::log(s + (1.0 - s) / p0);
    const double simpson = (i == 0 || i == kIntervals) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    sum += simpson * r;
    sum2 += simpson * r * r;
  }
  const double mean = sum / (3.0 * kIntervals);
  return {mean, std::max(0.0, sum2 / (3.0 * kIntervals) - mean * mean)};
}

SpeedupFit::SpeedupFit(const std::vector<CoreSample>& samples, const FitOptions& options) {
  check_fit_input(samples, options);
  const double floor2 = options.noise_floor * options.noise_floor;
  std::vector<double> weights(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) weights[i] = 1.0 / (1.0 + samples[i].extra_log_variance / floor2);

  const bool one_count = std::all_of(samples.begin(), samples.end(),
                                     [&](const CoreSample& s) { return s.cores == samples.front().cores; });
  if (one_count && samples.front().cores != 1) {
    double sum = 0.0, weight = 0.0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      sum += weights[i] * std::log(samples[i].seconds);
      weight += weights[i];
    }
    noise_log_sd_ = options.noise_floor;
    one_core_count_ = OneCoreCount{samples.front().cores, sum / weight, floor2 / weight};
    return;
  }

  const std::vector<std::string> names = options.models.empty() ? speedup_model_names() : options.models;
  std::vector<LawFit> fits;
  for (const std::string& name : names) {
    LawFit fit = fit_law(find_speedup_model(name), samples, weights, options.noise_floor, options.prior_weight);
    if (fit.usable) fits.push_back(std::move(fit));
  }
  if (fits.empty()) throw InputError("speedup fit", "no speedup law fits these points");

  // Run-to-run noise: the repetitions' spread (pure error) when there are repetitions, else the residuals of the
  // law that fits best; pooled with the floor either way.
  std::map<int, std::pair<double, double>> by_cores;  // cores -> (sum w ln y, sum w)
  for (std::size_t i = 0; i < samples.size(); ++i) {
    auto& [sum, weight] = by_cores[samples[i].cores];
    sum += weights[i] * std::log(samples[i].seconds);
    weight += weights[i];
  }
  double pure = 0.0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const auto& [sum, weight] = by_cores[samples[i].cores];
    const double deviation = std::log(samples[i].seconds) - sum / weight;
    pure += weights[i] * deviation * deviation;
  }
  const double pure_df = static_cast<double>(samples.size() - by_cores.size());
  double noise2 = 0.0;
  if (pure_df > 0.0) {
    noise2 = (pure + options.prior_weight * floor2) / (pure_df + options.prior_weight);
  } else {
    const LawFit& best = *std::min_element(fits.begin(), fits.end(), [](const LawFit& a, const LawFit& b) {
      return a.weighted_rss < b.weighted_rss;
    });
    const double n = static_cast<double>(samples.size());
    noise2 = (best.weighted_rss + options.prior_weight * floor2) /
             (std::max(0.0, n - static_cast<double>(best.free)) + options.prior_weight);
  }
  noise_log_sd_ = std::sqrt(noise2);

  // Akaike weights of the evidence scores.
  double best_score = std::numeric_limits<double>::infinity();
  for (LawFit& fit : fits) {
    fit.summary.score = evidence_score(fit, samples, noise2);
    best_score = std::min(best_score, fit.summary.score);
  }
  double total = 0.0;
  for (LawFit& fit : fits) {
    fit.summary.weight = std::exp(-0.5 * (fit.summary.score - best_score));
    total += fit.summary.weight;
  }
  for (LawFit& fit : fits) {
    fit.summary.weight /= total;
    models_.push_back(std::move(fit.summary));
    covariance_.push_back(std::move(fit.covariance));
    released_covariance_.push_back(std::move(fit.released_covariance));
  }

  // Anchors: the averaged curve's residual at each measured core count, shrunk by how far the residuals exceed
  // the noise of their means.
  std::vector<double> residuals;
  std::vector<double> noise_of_mean;
  for (const auto& [cores, moments] : by_cores) {
    residuals.push_back(moments.first / moments.second - averaged_log_moments(cores).mean);
    noise_of_mean.push_back(noise2 / moments.second);
  }
  double excess = 0.0;
  for (std::size_t k = 0; k < residuals.size(); ++k) excess += residuals[k] * residuals[k] - noise_of_mean[k];
  misfit_variance_ = std::max(0.0, excess / static_cast<double>(residuals.size()));
  std::size_t k = 0;
  for (const auto& entry : by_cores) {
    const double shrink = misfit_variance_ / (misfit_variance_ + noise_of_mean[k]);
    anchors_.push_back({std::log(static_cast<double>(entry.first)), shrink * residuals[k]});
    ++k;
  }
}

const ModelFit& SpeedupFit::chosen() const {
  if (models_.empty()) throw std::logic_error("SpeedupFit::chosen: no law was fitted (one core count only)");
  return *std::max_element(models_.begin(), models_.end(),
                           [](const ModelFit& a, const ModelFit& b) { return a.weight < b.weight; });
}

SpeedupFit::AveragedMoments SpeedupFit::averaged_log_moments(double cores) const {
  std::vector<LawMoments> moments(models_.size());
  AveragedMoments averaged;
  for (std::size_t m = 0; m < models_.size(); ++m) {
    if (models_[m].weight == 0.0) continue;
    moments[m] = law_log_moments(find_speedup_model(models_[m].model), models_[m], covariance_[m],
                                 released_covariance_[m], cores);
    averaged.mean += models_[m].weight * moments[m].mean;
  }
  for (std::size_t m = 0; m < models_.size(); ++m) {
    if (models_[m].weight == 0.0) continue;
    const double spread = moments[m].mean - averaged.mean;
    averaged.variance += models_[m].weight * (moments[m].variance + spread * spread);
    averaged.released_variance += models_[m].weight * (moments[m].released_variance + spread * spread);
  }
  return averaged;
}

CurvePoint SpeedupFit::at(int cores) const {
  const double x = std::log(static_cast<double>(cores));
  if (one_core_count_) {
    const auto [mean, variance] = amdahl_prior_log_ratio(one_core_count_->cores, cores);
    return {std::exp(one_core_count_->log_mean + mean), std::sqrt(one_core_count_->log_variance + variance)};
  }
  const AveragedMoments moments = averaged_log_moments(cores);
  double mean = moments.mean;
  // The anchored residual, linear in ln p between measured core counts and flat outside them.
  double residual = anchors_.front().residual;
  double nearest = std::abs(x - anchors_.front().log_cores);
  double nearest_log_cores = anchors_.front().log_cores;
  for (std::size_t k = 0; k < anchors_.size(); ++k) {
    if (std::abs(x - anchors_[k].log_cores) < nearest) {
      nearest = std::abs(x - anchors_[k].log_cores);
      nearest_log_cores = anchors_[k].log_cores;
    }
    if (x >= anchors_[k].log_cores) residual = anchors_[k].residual;
    if (k + 1 < anchors_.size() && x > anchors_[k].log_cores && x < anchors_[k + 1].log_cores) {
      const double share = (x - anchors_[k].log_cores) / (anchors_[k + 1].log_cores - anchors_[k].log_cores);
      residual = anchors_[k].residual + share * (anchors_[k + 1].residual - anchors_[k].residual);
    }
  }
  mean += residual;
  const double misfit = misfit_variance_ * std::min(1.0, nearest / std::log(2.0));
  // The held parameters' spread adds at most up to what the nearest measured count alone would leave with the
  // one-count prior: the delta method's variance grows without bound where a law's time nears 0 (a serial fraction
  // released from its bound, divided by the small time of many cores), and e^(sd^2 / 2) would overflow to an
  // infinite expected time. It never makes a count surer than the fit with them held.
  const double held = moments.variance + misfit;
  double released = moments.released_variance + misfit;
  if (released <= held) return {std::exp(mean), std::sqrt(held)};  // nothing held, or no spread: skip the prior
  const int nearest_cores = static_cast<int>(std::lround(std::exp(nearest_log_cores)));
  const double bound = amdahl_prior_log_ratio(nearest_cores, cores).second + noise_log_sd_ * noise_log_sd_;
  if (!(released <= bound)) released = bound;  // NaN too
  return {std::exp(mean), std::sqrt(std::max(held, released))};
}

std::vector<CurvePoint> SpeedupFit::curve(int max_cores) const {
  std::vector<CurvePoint> points;
  points.reserve(static_cast<std::size_t>(std::max(0, max_cores)));
  for (int p = 1; p <= max_cores; ++p) {
    CurvePoint point = at(p);
    if (!points.empty() && point.seconds > points.back().seconds) point = points.back();  // closure
    points.push_back(point);
  }
  return points;
}

}  // namespace cosched::knowledge
