#pragma once
// A task's time over its amount of work at one allocation: t(w) = fixed + per_unit * w, fitted to runs at a few
// small amounts (short runs) and predicted at any amount with its uncertainty — the rule the profiler applies to
// STREAM tasks with passes (cosched/profiler/launched_profile.hpp, fixed_cost_passes: runs of 1 and max(passes, 5)
// passes separate a run's fixed cost from its cost per pass), for any task that says how its work scales.
//
// Fitted by weighted least squares on relative residuals (weights 1 / t^2, reweighted once by the fit), both
// parameters >= 0; the covariance is sigma^2 (X'WX)^-1 with sigma^2 pooled with the caller's noise floor as in
// speedup_fit.hpp. Predicting far beyond the measured amounts multiplies the per-unit cost's error by the distance:
// the prediction's log_sd says by how much, at most carried_log_sd_bound from the measured amount nearest.
#include <vector>

#include "cosched/knowledge/speedup_fit.hpp"

namespace cosched::knowledge {

struct WorkSample {
  double work = 1.0;
  double seconds = 0.0;
};

// How unsure a time carried from a run at w units to W units can be: with a fixed cost and a cost per unit both
// >= 0, t(W) lies within [t(w), t(w) W / w] (W > w; mirrored below), so the sd of its ln is never more than that
// whole width, |ln(W / w)| — beside the run's own noise, in quadrature. The first-order sd of a fit carried far is
// (its error) / (its time) and has no such bound: noisy short runs of `true` at 1, 1 and 4 units, whose cost per
// unit they barely separated, said 12.6 at 100 units, and a plan's expected time e^(sd^2 / 2) x t was 1e34 s (the
// instance check refused the batch: learning_test.cpp's PricedUnknown, under load). Bounded, 3.2: still a time a
// plan stays away from. (The log-normal with the fit's two moments, sqrt(ln(1 + (sd / t)^2)), said 2.3 there and
// took such a time at its median: the simulated Xeon Max's recurring plans went from 1.026 to 1.293 x the
// exhaustive plan, bench/results/2026-12-02-carried-log-sd-bound.md.)
[[nodiscard]] double carried_log_sd_bound(double measured_work, double work, double noise_log_sd);

class WorkScalingFit {
 public:
  // Throws InputError for fewer than two distinct amounts of work, an amount not > 0, or a time not finite and > 0.
  WorkScalingFit(const std::vector<WorkSample>& samples, const FitOptions& options = {});

  [[nodiscard]] double fixed_seconds() const noexcept { return fixed_; }
  [[nodiscard]] double seconds_per_unit() const noexcept { return per_unit_; }
  // The time at `work` (median) and the sd of its ln from the fit alone (not a run's noise).
  [[nodiscard]] CurvePoint predict(double work) const;
  [[nodiscard]] double noise_log_sd() const noexcept { return noise_log_sd_; }
  // Var(fixed): a caller that carries the fixed cost to runs at one amount of work (task_fit.hpp) needs it.
  [[nodiscard]] double fixed_variance() const noexcept { return covariance_[0]; }

 private:
  double fixed_ = 0.0;
  double per_unit_ = 0.0;
  std::vector<double> covariance_;  // 2 x 2, row-major, of (fixed, per_unit)
  std::vector<double> amounts_;     // the amounts of work measured, ascending
  double noise_log_sd_ = 0.0;
};

}  // namespace cosched::knowledge
