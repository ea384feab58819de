#pragma once
// Everything known about one task, as the planner uses it: a sched::TimeProfile over (cores, fast chunks) made of
// the fits' median times, and per allocation how uncertain that time is.
//
// From a task's measurements (any cores, chunks and amounts of work):
//   1. each measured (cores, chunks) becomes times at the task's production work: runs at the production amount as
//      they are; runs at two or more other amounts through a work-scaling fit (work_scaling.hpp); runs at one
//      other amount through the fixed cost (seconds) of the nearest point (in cores; the same cores first) that
//      separated it, or in proportion to the work (a fixed cost of 0; notes() says so) when none did and the amount
//      is within TaskFitOptions::max_proportional_carry of production (else left out). How unsure
//      that fixed cost is here — its fit error, plus, borrowed from other cores, the spread of the fixed costs
//      across counts (or the prior TaskFitOptions::fixed_share_sd when fewer than two counts separated one), or
//      the prior alone when none was separated — times how far the amount is from production, goes into the
//      point's variance. A run carried by a cost from other cores less surely than the one-count prior from those
//      cores says (amdahl_prior_log_ratio: a short run mostly fixed cost) is left out when the other points stand on
//      one core count, where it would take the prior's place though it tells less (notes() says so);
//   2. the times without fast memory are fitted over cores (speedup_fit.hpp);
//   3. the times with fast memory, against the time without at the same cores, give the fast-memory ratio
//      (fast_memory.hpp), applied at every core count; a time with fast memory measured at production whose
//      partner without it is missing or only carried from short runs (a launch's task given chunks) is taken back
//      to 0 chunks through the ratio measured elsewhere, with its variance there, and joins step 2's fit; with no
//      ratio measured anywhere it bounds the time without fast memory from below, and joins the fit (at ratio 1)
//      where the fit is faster than it — left out, a run at the very allocation a plan uses again was lost;
//   4. the table t(p, c) = curve(p) * ratio(p, c) is closed (never longer with more of any resource) — the closure
//      takes a neighbour's time together with its uncertainty — and 0 cores is +inf (a task needs a core).
#include <memory>
#include <string>
#include <vector>

#include "cosched/knowledge/fast_memory.hpp"
#include "cosched/knowledge/measurement.hpp"
#include "cosched/knowledge/speedup_fit.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::knowledge {

// Which time of a fitted allocation's distribution a profile holds: its median times
// e^(sds_above x sd + variance_share x sd^2), sd the fits' sd of ln t there (FittedTask::at).
//   - kMedianTimes, the median: a prediction, as likely too long as too short;
//   - kExpectedTimes, the expected value (ln t normal: e^(sd^2 / 2)): what a plan is chosen on. A planner that picks
//     among many allocations on medians picks the ones whose fitted times happen to be low, most of all those
//     carried far from any run, where the fits are least sure (the optimizer's curse); the expected time charges an
//     allocation for that, next to nothing where it was measured (sd 0.1: 0.5 %), much where it was carried (sd 1:
//     65 %). Times one sd up instead were no better in the study; these moved its plans by its noise, a few % on
//     the 56-core Xeon Max (docs/knowledge.md, "In cosched run");
//   - cautious_times(z), z sd above the median: what is known for sure (what knowing more may save is the plan on
//     these against the plan's prediction on the medians).
struct TimeChoice {
  double sds_above = 0.0;
  double variance_share = 0.0;
};
inline constexpr TimeChoice kMedianTimes{0.0, 0.0};
inline constexpr TimeChoice kExpectedTimes{0.0, 0.5};
[[nodiscard]] constexpr TimeChoice cautious_times(double z) noexcept { return {z, 0.0}; }

struct TaskFitOptions {
  FitOptions fit;
  double transfer_error = 0.5;  // fast_memory.hpp's kappa
  // The prior on a fixed cost no run separated at a point's core count: one sd, as a share of the run's time. A
  // start-up (a process, its input) against runs launched for production (seconds to minutes) is a few % of them;
  // 10 % leaves room for shorter runs. Carried from w to W units in proportion, the sd of ln it adds is
  // fixed_share_sd x |1 - w / W|.
  double fixed_share_sd = 0.1;
  // With no fixed cost separated anywhere, a run is carried in proportion only from an amount within this factor
  // of production either way (a launch's run of the same program at another size); a short run carried farther is
  // left out: its fixed cost may be most of it, and carried 100 x in proportion it made the recurring study's
  // second batches 1.49 x the exhaustive plan instead of 1.32 x (docs/knowledge.md).
  double max_proportional_carry = 4.0;
  // A run carried from w units to production W assumes the cost per unit stays what the runs measured; a program
  // whose cost per unit changes with its input (a compressor's window filling, a cache overflowing) breaks that,
  // the more the farther it is carried. interval_log_sd allows carry_misfit_sd x |ln(W / w)|, w the measured amount
  // nearest W. Not in the fits nor the strategies' choices: there, 0.05 made the simulated KNL's recurring plans
  // 1.126 x the exhaustive plan against 1.076 x (bench/results/2026-11-29-interval-carry-misfit.md).
  double carry_misfit_sd = 0.05;
};

class FittedTask {
 public:
  // Throws InputError for measurements check_measurements refuses or when there is no measurement without fast
  // memory; the fits' errors otherwise.
  FittedTask(const NodeShape& node, const TaskWork& work, const std::vector<Measurement>& measurements,
             const TaskFitOptions& options = {});

  // The resources (cores, and fast chunks when the node has any) and the medians over them.
  [[nodiscard]] const sched::AllocationSpace& space() const noexcept { return space_; }
  [[nodiscard]] std::shared_ptr<const sched::TimeProfile> profile() const noexcept { return profile_; }
  // Another time of each allocation's distribution (TimeChoice), closed again; kMedianTimes: profile().
  [[nodiscard]] std::shared_ptr<const sched::TimeProfile> profile(const TimeChoice& choice) const;
  // The closed median time and the sd of its ln from the fits alone, at cores >= 1 (chunks ignored without a tier).
  [[nodiscard]] CurvePoint at(int cores, int chunks) const;
  // One run's noise (sd of ln), as the fits estimated it.
  [[nodiscard]] double noise_log_sd() const noexcept { return noise_log_sd_; }
  // What one run at (cores, chunks) will take: sd of ln from the fits and the run's noise together.
  [[nodiscard]] double predictive_log_sd(int cores, int chunks) const;
  // What a prediction's interval allows a run at (cores, chunks): predictive_log_sd and, in quadrature, the misfit
  // of carrying runs to production (TaskFitOptions::carry_misfit_sd; 0 when a run was measured at production).
  [[nodiscard]] double interval_log_sd(int cores, int chunks) const;
  // A run at `work` units: the fitted time one sd up, scaled from the production amount by the fixed cost where
  // runs at two amounts separated it — the points measured at production and another amount too — else in
  // proportion (short_run_seconds). What strategies quote as a run's cost.
  [[nodiscard]] double estimate_seconds(int cores, int chunks, double work) const;

  [[nodiscard]] const SpeedupFit& cores_fit() const noexcept { return *cores_; }
  [[nodiscard]] const FastMemoryFit& fast_memory() const noexcept { return *fast_; }
  // The fixed cost of a run when short runs separated it (seconds, the mean over the points that did), else a
  // negative value.
  [[nodiscard]] double fixed_seconds() const noexcept { return fixed_seconds_; }
  [[nodiscard]] const TaskWork& work() const noexcept { return work_; }
  // What was left out or assumed, in words.
  [[nodiscard]] const std::vector<std::string>& notes() const noexcept { return notes_; }

 private:
  [[nodiscard]] std::size_t index(int cores, int chunks) const;

  NodeShape node_;
  TaskWork work_;
  sched::AllocationSpace space_;
  std::shared_ptr<const sched::TimeProfile> profile_;
  std::vector<double> log_sd_;  // per allocation index, from the fits alone
  std::shared_ptr<const SpeedupFit> cores_;
  std::shared_ptr<const FastMemoryFit> fast_;
  double noise_log_sd_ = 0.0;
  double fixed_seconds_ = -1.0;
  double quote_fixed_seconds_ = 0.0;  // the fixed cost estimate_seconds uses: 0 where no point separated one
  double carry_misfit_log_sd_ = 0.0;  // carry_misfit_sd x |ln(W / w)|, w the measured amount nearest W
  std::vector<std::string> notes_;
};

// What a run of `work` units costs when a run of `production` units takes `production_s`: its fixed cost `fixed_s`
// (within [0, production_s]) plus the rest in proportion to the work. The README batch's triads at 10 and 30 passes
// separate theirs (0.04 s): a one-pass run costs 0.045 s, not 1/30 of the 30-pass task's 0.2 s.
[[nodiscard]] double short_run_seconds(double production_s, double work, double production, double fixed_s);

}  // namespace cosched::knowledge
