// A plan's makespan as a distribution (makespan_interval.hpp): without uncertainty it is the prediction; it is the
// same for a seed; and its 80 % interval covers makespans drawn from the same noise model at its nominal rate.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/makespan_interval.hpp"
#include "cosched/knowledge/random.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::knowledge {
namespace {

// Six tasks on 4 cores, list-planned by hand: two waves.
sim::LaunchPlan two_waves() {
  sim::LaunchPlan plan;
  plan.algorithm = "by-hand";
  plan.resource_names = {"cores"};
  plan.capacities = {4};
  plan.tasks = {{"a", {2}, 0.0, 10.0}, {"b", {1}, 0.0, 8.0},  {"c", {1}, 0.0, 6.0},
                {"d", {1}, 6.0, 5.0},  {"e", {2}, 10.0, 7.0}, {"f", {1}, 8.0, 9.0}};
  return plan;
}

TEST(MakespanInterval, WithoutUncertaintyItIsThePrediction) {
  const sim::LaunchPlan plan = two_waves();
  const std::vector<double> none(plan.tasks.size(), 0.0);
  const MakespanDistribution d = makespan_distribution(plan, none, {50, 1, 0.0, {0.1, 0.5, 0.9}, "auto", {}, {}});
  EXPECT_DOUBLE_EQ(d.nominal, sim::predict_contention(plan, "auto").observed_makespan);
  EXPECT_DOUBLE_EQ(d.nominal, 17.0);
  for (const double value : d.values) EXPECT_DOUBLE_EQ(value, 17.0);
}

TEST(MakespanInterval, TheSameForASeedAndWiderWithMoreNoise) {
  const sim::LaunchPlan plan = two_waves();
  const std::vector<double> sd(plan.tasks.size(), 0.1);
  const MakespanDistribution a = makespan_distribution(plan, sd, {300, 5, 0.05, {0.1, 0.9}, "auto", {}, {}});
  const MakespanDistribution b = makespan_distribution(plan, sd, {300, 5, 0.05, {0.1, 0.9}, "auto", {}, {}});
  EXPECT_EQ(a.values, b.values);
  const MakespanDistribution wider = makespan_distribution(plan, sd, {300, 5, 0.2, {0.1, 0.9}, "auto", {}, {}});
  EXPECT_GT(wider.values[1] - wider.values[0], a.values[1] - a.values[0]);
}

TEST(MakespanInterval, The80PercentIntervalCoversItsNoiseModelAtItsRate) {
  // Trial k: an interval from seed k, and one makespan observed under the same model (tasks lognormal with sd 0.15,
  // the node with 0.05) drawn from an independent stream.
  const sim::LaunchPlan plan = two_waves();
  const std::vector<double> sd(plan.tasks.size(), 0.15);
  constexpr int kTrials = 300;
  int covered = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const MakespanDistribution d =
        makespan_distribution(plan, sd, {400, static_cast<std::uint64_t>(trial) + 1, 0.05, {0.1, 0.9}, "auto", {}, {}});
    NormalDraws observed_noise(1'000'000 + static_cast<std::uint64_t>(trial));
    sim::LaunchPlan observed = plan;
    const double node = 0.05 * observed_noise.next();
    for (auto& task : observed.tasks) task.predicted_duration *= std::exp(node + 0.15 * observed_noise.next());
    const double makespan = sim::predict_contention(observed, "auto").observed_makespan;
    covered += makespan >= d.values[0] && makespan <= d.values[1] ? 1 : 0;
  }
  // Binomial sd of the rate over 300 trials: 2.3 %; the interval's own Monte Carlo error adds ~1 %. 4 sd either way.
  EXPECT_GE(covered, static_cast<int>(kTrials * 0.70));
  EXPECT_LE(covered, static_cast<int>(kTrials * 0.90));
}

// Coverage of `plan`'s 80 % interval over kTrials: each trial an interval from its own seed (with `groups` as the
// interval's error groups) and one makespan observed under the model where tasks of one of `true_groups` share one
// error (sd `sd` each), the node 0.05, drawn from an independent stream.
int covered_of_grouped_model(const sim::LaunchPlan& plan, const std::vector<std::size_t>& true_groups,
                             const std::vector<std::size_t>& groups, double sd, int trials) {
  const std::vector<double> task_sd(plan.tasks.size(), sd);
  int covered = 0;
  for (int trial = 0; trial < trials; ++trial) {
    IntervalOptions options{400, static_cast<std::uint64_t>(trial) + 1, 0.05, {}, "auto", groups, {}};
    const MakespanInterval interval = stated_interval(plan, task_sd, options);
    NormalDraws observed_noise(1'000'000 + static_cast<std::uint64_t>(trial));
    const double node = 0.05 * observed_noise.next();
    std::vector<double> group_error(plan.tasks.size());
    for (double& error : group_error) error = sd * observed_noise.next();
    sim::LaunchPlan observed = plan;
    for (std::size_t j = 0; j < observed.tasks.size(); ++j) {
      observed.tasks[j].predicted_duration *= std::exp(node + group_error[true_groups[j]]);
    }
    const double makespan = sim::predict_contention(observed, "auto").observed_makespan;
    covered += makespan >= interval.low_s && makespan <= interval.high_s ? 1 : 0;
  }
  return covered;
}

TEST(MakespanInterval, TasksSharingOneErrorAreCoveredAtTheNominalRateOnlyWhenGrouped) {
  // Two kinds (a, b, c: one fit or one guess; d, e, f: another): their tasks run long or short together. The
  // interval that knows it covers at its rate; the one that draws each task on its own lets the errors average out
  // and is too narrow.
  const sim::LaunchPlan plan = two_waves();
  const std::vector<std::size_t> kinds{0, 0, 0, 1, 1, 1};
  constexpr int kTrials = 300;
  const int grouped = covered_of_grouped_model(plan, kinds, kinds, 0.3, kTrials);
  EXPECT_GE(grouped, static_cast<int>(kTrials * 0.70));  // binomial sd 2.3 %: 4 sd either way
  EXPECT_LE(grouped, static_cast<int>(kTrials * 0.90));
  const int ungrouped = covered_of_grouped_model(plan, kinds, {}, 0.3, kTrials);
  EXPECT_LT(ungrouped, static_cast<int>(kTrials * 0.70));
}

TEST(MakespanInterval, TheStatedIntervalIsTheTenthToTheNinetiethPercentile) {
  const sim::LaunchPlan plan = two_waves();
  const std::vector<double> sd(plan.tasks.size(), 0.2);
  const MakespanDistribution d = makespan_distribution(plan, sd, {300, 3, 0.05, {0.1, 0.9}, "auto", {}, {}});
  const MakespanInterval stated = stated_interval(plan, sd, {300, 3, 0.05, {0.5}, "auto", {}, {}});
  EXPECT_DOUBLE_EQ(stated.low_s, d.values[0]);
  EXPECT_DOUBLE_EQ(stated.high_s, d.values[1]);
  EXPECT_DOUBLE_EQ(kStatedCoverage, 0.8);
}

TEST(MakespanInterval, TheNodesNoiseAloneSpreadsItAndTheMeanIsOfTheSamples) {
  const sim::LaunchPlan plan = two_waves();
  const std::vector<double> none(plan.tasks.size(), 0.0);
  // No task uncertainty: the mean of identical samples is the prediction itself.
  EXPECT_DOUBLE_EQ(makespan_distribution(plan, none, {50, 1, 0.0, {0.5}, "auto", {}, {}}).mean, 17.0);
  // The node's launch-to-launch noise alone (the whole run scaled alike in a sample) still spreads the makespan.
  const MakespanDistribution noisy = makespan_distribution(plan, none, {300, 3, 0.1, {0.1, 0.9}, "auto", {}, {}});
  EXPECT_LT(noisy.values[0], 17.0);
  EXPECT_GT(noisy.values[1], 17.0);
}

// Four 1-core tasks of 10 s, each asking 0.5 GB/s of a pool that gives 1 GB/s to any number of cores (or, without
// the pool, each of 20 s): together they ask twice what it gives and all end at 20 s, the bytes (4 x 5 GB) over the
// pool's rate.
sim::LaunchPlan four_tasks_of_20_s(bool saturated_pool) {
  sim::LaunchPlan plan;
  plan.algorithm = "by-hand";
  plan.resource_names = {"cores"};
  plan.capacities = {4};
  if (saturated_pool) plan.bandwidth.pools.push_back({"dram", {1.0}, {1e9}});
  for (const char* id : {"a", "b", "c", "d"}) {
    sim::PlannedTask task;
    task.id = id;
    task.demand = {1};
    task.predicted_duration = saturated_pool ? 10.0 : 20.0;
    if (saturated_pool) task.flow = {{0.5e9}, 1.0, 1.0};
    plan.tasks.push_back(task);
  }
  return plan;
}

// A task drawn slower moves the same bytes (issue 41, mutant M5: its demand multiplied, not divided, by its factor).
// Drawn f times slower (f within [0.5, 2]) with one error the four tasks share, each asks 0.5 / f GB/s for 10 f s:
// still 20 GB at 1 GB/s, so every sample is 20 s.
TEST(MakespanInterval, ATaskDrawnSlowerMovesTheSameBytesSoASaturatedPoolKeepsTheMakespan) {
  const sim::LaunchPlan plan = four_tasks_of_20_s(true);
  const std::vector<double> sd(plan.tasks.size(), 0.15);
  const MakespanDistribution d =
      makespan_distribution(plan, sd, {300, 7, 0.0, {0.1, 0.5, 0.9}, "auto", {0, 0, 0, 0}, {}});
  EXPECT_NEAR(d.nominal, 20.0, 1e-9);
  for (const double value : d.values) EXPECT_NEAR(value, 20.0, 1e-9);
}

// The node's factor is a whole launch's (how the node's launches drift: a slower memory phase slows the pools too),
// so it scales the makespan even where the pool is saturated: the same quantiles as the same tasks without a pool.
// Put on the tasks alone, the pool absorbed it (every sample 20 s) and the demo's intervals held 38 of 90 launches.
TEST(MakespanInterval, TheNodesFactorScalesTheWholeLaunchItsSaturatedPoolToo) {
  const std::vector<double> none(4, 0.0);
  const IntervalOptions options{300, 7, 0.1, {0.1, 0.5, 0.9}, "auto", {}, {}};
  const MakespanDistribution pooled = makespan_distribution(four_tasks_of_20_s(true), none, options);
  const MakespanDistribution alone = makespan_distribution(four_tasks_of_20_s(false), none, options);
  ASSERT_EQ(pooled.values.size(), alone.values.size());
  for (std::size_t q = 0; q < alone.values.size(); ++q) EXPECT_NEAR(pooled.values[q], alone.values[q], 1e-9);
  EXPECT_LT(pooled.values.front(), 20.0 * std::exp(-0.1));  // about 20 e^(-1.28 x 0.1) = 17.6 s
  EXPECT_GT(pooled.values.back(), 20.0 * std::exp(0.1));
}

// Sigma read from k launches is itself uncertain: a new launch's ln(observed / predicted) over sigma is a Student's
// t with k degrees of freedom, whose 90th percentile is 1.638 for k = 3 and 1.325 for k = 20 (1.282 known).
TEST(MakespanInterval, ASigmaReadFromFewLaunchesWidensTheNodesFactorAsStudentsT) {
  const sim::LaunchPlan plan = four_tasks_of_20_s(false);
  const std::vector<double> none(plan.tasks.size(), 0.0);
  const auto high_log_ratio = [&](std::size_t dof) {
    IntervalOptions options{20000, 11, 0.1, {0.9}, "auto", {}, {}};
    options.launch_noise_dof = dof;
    return std::log(makespan_distribution(plan, none, options).values[0] / 20.0) / 0.1;
  };
  EXPECT_NEAR(high_log_ratio(0), 1.282, 0.03);
  EXPECT_NEAR(high_log_ratio(3), 1.638, 0.05);
  EXPECT_NEAR(high_log_ratio(20), 1.325, 0.03);
}

TEST(MakespanInterval, AGainOfKnownSignScalesTimesDownByUpToItsBoundUniformly) {
  // One task of 10 s, no other uncertainty, a bound of ln 4: its time is 10 e^(-u ln 4), u uniform on [0, 1], so the
  // q-quantile of the makespan is 10 x 4^-(1 - q) — 2.5 s at q = 0 ... 10 s at q = 1, 5 s at the median.
  sim::LaunchPlan plan;
  plan.algorithm = "by-hand";
  plan.resource_names = {"cores"};
  plan.capacities = {1};
  plan.tasks = {{"a", {1}, 0.0, 10.0}};
  IntervalOptions options{4000, 7, 0.0, {0.1, 0.5, 0.9}, "auto", {}, {}};
  options.log_gain_bound = {std::log(4.0)};
  const MakespanDistribution d = makespan_distribution(plan, std::vector<double>{0.0}, options);
  EXPECT_DOUBLE_EQ(d.nominal, 10.0);
  for (std::size_t k = 0; k < d.quantiles.size(); ++k) {
    const double expected = 10.0 * std::pow(4.0, -(1.0 - d.quantiles[k]));
    // The sample quantile of 4000 draws: sd of u about 0.5 %, so within 2 % of the time.
    EXPECT_NEAR(d.values[k] / expected, 1.0, 0.02) << "q = " << d.quantiles[k];
  }
  // Tasks of one group share their u: two of them in a row (the greedy rule: the second as soon as the core is
  // free) end at 2 x 10 e^(-u ln 4), never with u's averaging.
  plan.tasks.push_back({"b", {1}, 10.0, 10.0});
  options.log_gain_bound = {std::log(4.0), std::log(4.0)};
  options.error_groups = {3, 3};
  options.policy = "greedy";
  const MakespanDistribution shared = makespan_distribution(plan, std::vector<double>{0.0, 0.0}, options);
  EXPECT_NEAR(shared.values[0] / (20.0 * std::pow(4.0, -0.9)), 1.0, 0.02);
}

TEST(MakespanInterval, ASlowdownBesideOtherTasksScalesTheTasksThatCoRunUpToItsBound) {
  // Two tasks of 10 s side by side on two cores, a co-running bound of ln 2: both are slowed by one u, so from the
  // median up the makespan's q-quantile is 10 x 2^q — 14.1 s at the median, 18.7 s at q = 0.9 —, and below it the
  // slowdown may be none: 10 s at q = 0.1 (10.7 s were it drawn as a noise).
  sim::LaunchPlan plan;
  plan.algorithm = "by-hand";
  plan.resource_names = {"cores"};
  plan.capacities = {2};
  plan.tasks = {{"a", {1}, 0.0, 10.0}, {"b", {1}, 0.0, 10.0}};
  IntervalOptions options{4000, 7, 0.0, {0.1, 0.5, 0.9}, "auto", {}, {}};
  options.co_running_log_bound = {std::log(2.0), std::log(2.0)};
  const std::vector<double> none{0.0, 0.0};
  const MakespanDistribution beside = makespan_distribution(plan, none, options);
  EXPECT_DOUBLE_EQ(beside.nominal, 10.0);
  for (std::size_t k = 0; k < beside.quantiles.size(); ++k) {
    const double q = beside.quantiles[k];
    EXPECT_NEAR(beside.values[k] / (10.0 * std::pow(2.0, q < 0.5 ? 0.0 : q)), 1.0, 0.02) << "q = " << q;
  }
  // One after the other on both cores each, nothing runs beside either: the makespan stays 20 s.
  plan.tasks = {{"a", {2}, 0.0, 10.0}, {"b", {2}, 10.0, 10.0}};
  for (const double value : makespan_distribution(plan, none, options).values) EXPECT_DOUBLE_EQ(value, 20.0);
  // b beside a for half of a's run (a 0-10 s, b 5-15 s on the list rule's planned starts): a is slowed by its
  // half only — at the most u = 1, a takes 10 x 2^0.5 = 14.1 s; b starts at 5 s whatever a takes.
  plan.tasks = {{"a", {1}, 0.0, 10.0}, {"b", {1}, 5.0, 10.0}};
  options.quantiles = {1.0};
  options.policy = "list";
  EXPECT_NEAR(makespan_distribution(plan, none, options).values[0], 5.0 + 10.0 * std::pow(2.0, 0.5), 0.1);
}

TEST(MakespanInterval, TakesTheQuantilesAtBothEnds) {
  const sim::LaunchPlan plan = two_waves();
  const std::vector<double> sd(plan.tasks.size(), 0.1);
  const MakespanDistribution d = makespan_distribution(plan, sd, {100, 1, 0.0, {0.0, 1.0}, "auto", {}, {}});
  ASSERT_EQ(d.values.size(), 2U);
  EXPECT_LE(d.values[0], d.values[1]);
}

TEST(MakespanInterval, RefusesWhatIsNotADistribution) {
  const sim::LaunchPlan plan = two_waves();
  const std::vector<double> sd(plan.tasks.size(), 0.1);
  EXPECT_THROW((void)makespan_distribution(plan, std::vector<double>{0.1}), UsageError);
  EXPECT_THROW((void)makespan_distribution(plan, sd, {0, 1, 0.0, {0.5}, "auto", {}, {}}), UsageError);
  EXPECT_THROW((void)makespan_distribution(plan, sd, {10, 1, -0.1, {0.5}, "auto", {}, {}}), UsageError);
  EXPECT_THROW((void)makespan_distribution(plan, sd, {10, 1, 0.0, {1.5}, "auto", {}, {}}), UsageError);
  EXPECT_THROW((void)makespan_distribution(plan, sd, {10, 1, 0.0, {0.5}, "auto", {0, 1}, {}}), UsageError);
  IntervalOptions gains{10, 1, 0.0, {0.5}, "auto", {}, {}};
  gains.log_gain_bound = {0.1};  // one bound for six tasks
  EXPECT_THROW((void)makespan_distribution(plan, sd, gains), UsageError);
  gains.log_gain_bound.assign(plan.tasks.size(), -0.1);
  EXPECT_THROW((void)makespan_distribution(plan, sd, gains), UsageError);
  gains.log_gain_bound.assign(plan.tasks.size(), std::nan(""));
  EXPECT_THROW((void)makespan_distribution(plan, sd, gains), UsageError);
  IntervalOptions co_running{10, 1, 0.0, {0.5}, "auto", {}, {}};
  co_running.co_running_log_bound = {0.1};
  EXPECT_THROW((void)makespan_distribution(plan, sd, co_running), UsageError);
  co_running.co_running_log_bound.assign(plan.tasks.size(), -0.1);
  EXPECT_THROW((void)makespan_distribution(plan, sd, co_running), UsageError);
}

TEST(SampleQuantile, InterpolatesBetweenOrderStatistics) {
  EXPECT_DOUBLE_EQ(sample_quantile({4.0, 1.0, 3.0, 2.0}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(sample_quantile({4.0, 1.0, 3.0, 2.0}, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(sample_quantile({4.0, 1.0, 3.0, 2.0}, 1.0), 4.0);
  EXPECT_THROW((void)sample_quantile({}, 0.5), std::invalid_argument);
}

}  // namespace
}  // namespace cosched::knowledge
