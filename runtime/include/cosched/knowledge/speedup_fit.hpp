#pragma once
// A task's time over cores from a sparse set of measured (cores, seconds) points, with its uncertainty.
//
// Noise model: a run's time is the task's time times a lognormal factor, so every fit works on relative (log)
// residuals. Each registered law (speedup_models.hpp) is fitted by bounded weighted least squares — the laws in
// seconds by iteratively reweighted least squares with weights 1 / t(p)^2, which makes their residuals relative
// too. A parameter that sits on its bound (a serial fraction of 0) is held there, and its spread — as far as the
// points separate it — stays in the variance: points that put a serial fraction at 0 do not say it is 0. That
// spread adds at most up to what the nearest measured count alone would leave with the one-count prior (below).
//
// Evidence: AICc with the noise taken as known — chi^2 of the log residuals over each point's variance (one run's
// noise, below, plus what extrapolating the point added), + 2k + 2k(k+1)/max(1, n-k-1) — so that 3-4 points are
// scored too, without a law that happens to thread them winning on a residual of nothing (with an estimated noise,
// AICc needs n > k + 2 points and then favours such a law). The prediction averages the laws by Akaike weight, and
// its variance is the averaged parameter variance (covariance sigma^2 (X'WX)^-1, propagated to ln t by the delta
// method) plus the spread between the laws — the covariance rather than a bootstrap because the fits are linear
// (exact and cheap, deterministic) and a bootstrap of 4-7 points mostly resamples the same few core counts.
//
// sigma^2, the run-to-run noise, is pooled with a prior: (SS + nu0 sigma0^2) / (df + nu0) with sigma0 the caller's
// noise floor, from the repetitions' spread (pure error) when there are repetitions, else from the best law's
// residuals. So a fit of as many points as parameters still has an uncertainty, and it shrinks as points come.
//
// Shapes no law follows (a plateau, a cache-driven jump): the averaged curve's residuals at the measured core counts
// are shrunk towards 0 by how far they exceed the noise (empirical Bayes: tau^2 = mean r^2 - mean noise variance)
// and interpolated in ln p between them (flat outside): the curve goes through what was measured where a law
// misses it, and the misfit variance tau^2 is added away from the measured counts (in full from one doubling away).
// Finally the curve is closed (t(p) = min over q <= p), as sched::TimeProfile's contract wants.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cosched::knowledge {

struct CoreSample {
  int cores = 1;
  double seconds = 0.0;
  // Extra variance of ln(seconds) beyond one run's noise: a time extrapolated from short runs (task_fit.hpp). Such
  // a row is weighted 1 / (1 + extra / sigma0^2).
  double extra_log_variance = 0.0;
};

struct FitOptions {
  double noise_floor = 0.02;   // sigma0: the run-to-run noise assumed before any repetition says otherwise (log)
  double prior_weight = 2.0;   // nu0: how many residual degrees of freedom sigma0 counts for
  // The laws to fit (speedup_model_names() when empty).
  std::vector<std::string> models;
};

// A point of the fitted curve: the median time (seconds) and the standard deviation of ln(time) from the fit alone
// (the run-to-run noise is SpeedupFit::noise_log_sd, added by a caller predicting a single run).
struct CurvePoint {
  double seconds = 0.0;
  double log_sd = 0.0;
};

struct ModelFit {
  std::string model;
  std::vector<double> theta;  // the law's parameters (speedup_models.hpp)
  double score = 0.0;         // the evidence score (AICc with known noise): lower is better
  double weight = 0.0;        // Akaike weight in the average (0 for a law left out)
  double log_rmse = 0.0;      // root mean square log residual
  std::string description;    // SpeedupModel::describe
};

// The prior over cores of a task measured at one core count p0 only: Amdahl's law t(p) = t1 (s + (1 - s) / p) with
// its serial fraction s log-uniform on [kOneCountSerialFractionMin, 1] — every order of magnitude from nearly
// linear to no speed-up equally likely. Returns the mean and the variance of ln(t(cores) / t(p0)) under it (0 and 0
// at p0). From 2 cores to 64: mean -2.12 (t / 8.3), sd 1.1; the exponent uniform on [0, 1] it replaced gave -1.73
// (t / 5.7), sd 1.0. Throws std::invalid_argument for a count below 1. Why 10^-3 and not lower: from 10^-4 the prior
// is too fast where programs stop scaling (bench/results/knowledge-study-analysis-2026-11-29.md).
inline constexpr double kOneCountSerialFractionMin = 1e-3;
[[nodiscard]] std::pair<double, double> amdahl_prior_log_ratio(int measured_cores, int cores);

class SpeedupFit {
 public:
  // Throws InputError for no sample, a sample below 1 core or with seconds not finite and > 0, or options out of
  // range; UsageError for an unknown law.
  SpeedupFit(const std::vector<CoreSample>& samples, const FitOptions& options = {});

  // The averaged, anchored curve at 1..max_cores, closed (non-increasing in cores).
  [[nodiscard]] std::vector<CurvePoint> curve(int max_cores) const;
  // The same at one core count, before the closure.
  [[nodiscard]] CurvePoint at(int cores) const;

  [[nodiscard]] const std::vector<ModelFit>& models() const noexcept { return models_; }
  // The law of largest Akaike weight; std::logic_error when no law was fitted (models() empty: samples at one
  // core count other than 1).
  [[nodiscard]] const ModelFit& chosen() const;
  [[nodiscard]] double noise_log_sd() const noexcept { return noise_log_sd_; }
  // How many core counts the samples were at. At one, the curve says nothing measured of how the task speeds up:
  // the prior over cores (a count other than 1), or the laws' bounds (samples on one core only).
  [[nodiscard]] std::size_t core_counts() const noexcept { return one_core_count_ ? 1 : anchors_.size(); }
  // The misfit variance tau^2 (0 when the laws explain the points within their noise).
  [[nodiscard]] double misfit_log_variance() const noexcept { return misfit_variance_; }

 private:
  struct Anchor {
    double log_cores;
    double residual;  // shrunk
  };
  // The laws' averaged mean of ln t at `cores` and its variance (parameters + spread between the laws), with the
  // parameters held at a bound fixed there and with their spread.
  struct AveragedMoments {
    double mean = 0.0;
    double variance = 0.0;
    double released_variance = 0.0;
  };
  [[nodiscard]] AveragedMoments averaged_log_moments(double cores) const;

  // Samples at one core count only, other than 1 (e.g. a task observed where a plan put it): no law can tell its
  // serial time from its speedup. Then ln t(p) = ln t(p0) + the prior's mean ln(t(p) / t(p0)), with ln-variance
  // noise/n + the prior's variance (amdahl_prior_log_ratio); models_ stays empty.
  struct OneCoreCount {
    int cores;
    double log_mean;
    double log_variance;  // of the mean
  };
  std::optional<OneCoreCount> one_core_count_;
  std::vector<ModelFit> models_;
  std::vector<std::vector<double>> covariance_;  // per model, row-major over its parameters (0 where held)
  std::vector<std::vector<double>> released_covariance_;  // the same with the held parameters' spread
  std::vector<Anchor> anchors_;                  // ascending in cores
  double noise_log_sd_ = 0.0;
  double misfit_variance_ = 0.0;
};

}  // namespace cosched::knowledge
