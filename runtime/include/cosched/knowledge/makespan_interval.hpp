#pragma once
// A plan's makespan as a distribution (issue 39, item 3): Monte Carlo over the tasks' times, each drawn from its
// fit's predictive distribution (lognormal around the planned duration with the task's sd of ln t: the fits'
// uncertainty, one run's noise and the misfit of carrying short runs, FittedTask::interval_log_sd), each draw run
// through the simulation core exactly as the plan is predicted — the contention clock with the launch policy
// (sim::predict_contention; without a bandwidth model that is the paper model's simulated clock), so a task that
// runs late delays the tasks the list or pack rule keeps behind it. A slower task moves the same bytes: its demand
// on the memory pools falls in proportion. Each simulated run's makespan is then scaled by one node-wide factor (a
// lognormal of the caller's sigma, measured as whole launches' ln(observed / predicted): how this node's launches
// drift together, e.g. a slower memory phase, which slows the pools as well as the tasks; with the sigma's degrees
// of freedom given, its ln a Student's t). Deterministic for a seed.
//
// Tasks whose errors are one error share one draw (IntervalOptions::error_groups): the tasks timed by one guess
// (kinds never measured), the tasks of one kind (one fit). Drawn independently, their errors would average out
// over a batch and the interval would be too narrow exactly where the prediction is least sure: measured on this
// VM (bench/interval_coverage.py), a batch's guessed tasks ran all shorter or all longer than the guess together.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cosched/sim/plan.hpp"

namespace cosched::knowledge {

struct IntervalOptions {
  std::size_t samples = 2000;
  std::uint64_t seed = 1;
  double launch_noise_sigma = 0.0;              // sd of ln of the node-wide factor
  std::vector<double> quantiles{0.1, 0.5, 0.9};  // in [0, 1]
  std::string policy = "auto";                  // as sim::make_policy
  // Per plan task, its error group: tasks of one group draw one standard normal (each scales it by its own sd).
  // Empty: every task draws its own.
  std::vector<std::size_t> error_groups;
  // Per plan task, a gain of unknown size and known sign: its time also scaled by exp(-bound x u), u uniform on
  // [0, 1], one u per error group — a task placed on fast memory its kind was never measured on runs as fast as
  // without it or up to the tiers' bandwidth ratio faster, never slower by it (the planned time assumes no gain).
  // Empty: none.
  std::vector<double> log_gain_bound;
  // Per plan task, a slowdown of unknown size and known sign while other tasks run beside it, which the prediction
  // does not model (no node bandwidth model, and the task's times measured with it alone): its time also scaled by
  // exp(bound x u x share), u uniform on [0, 1] and one per sample (the tasks share one memory system), share the
  // part of its run the plan's prediction has other tasks run beside it. A task run alone is not slowed. The
  // quantiles below the median are taken without the slowdown (it may be none), the median and above with it: the
  // interval holds wherever the slowdown lies in its range, and never starts above the prediction it allows for.
  // Empty: none.
  std::vector<double> co_running_log_bound{};
  // The launches launch_noise_sigma is the root mean square of (a prior counted as its launches): the factor's ln
  // is then sigma times a Student's t of as many degrees of freedom, wider than a normal while they are few.
  // 0: sigma is known (a normal).
  std::size_t launch_noise_dof = 0;
};

// The interval every prediction states (issue 39, item 3): the central 80 %, the 10th to the 90th percentile.
inline constexpr double kStatedCoverage = 0.8;
struct MakespanInterval {
  double low_s = 0.0;
  double high_s = 0.0;
};

struct MakespanDistribution {
  double nominal = 0.0;          // the plan's prediction with every task at its planned duration
  double mean = 0.0;
  std::vector<double> quantiles;  // as asked
  std::vector<double> values;     // one per quantile
};

// task_log_sd[j] is plan task j's sd of ln t. Throws UsageError for no sample, a quantile outside [0, 1], a sigma,
// sd, gain or co-running bound that is not finite and >= 0, one sd (or error group or bound, when given) per task
// missing;
// the engine's errors as sim::predict_contention.
[[nodiscard]] MakespanDistribution makespan_distribution(const sim::LaunchPlan& plan,
                                                         std::span<const double> task_log_sd,
                                                         const IntervalOptions& options = {});

// The stated interval (kStatedCoverage) of makespan_distribution with `options`' samples, seed, sigma, policy and
// groups (its quantiles are replaced).
[[nodiscard]] MakespanInterval stated_interval(const sim::LaunchPlan& plan, std::span<const double> task_log_sd,
                                               IntervalOptions options = {});

}  // namespace cosched::knowledge
