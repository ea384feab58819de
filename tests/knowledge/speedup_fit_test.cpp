// Speedup fits (cosched/knowledge/speedup_fit.hpp): each law recovers its own parameters from exact points (worked
// by hand), the evidence picks the law that made the points, the curve never rises with cores, and its uncertainty
// shrinks as points are added.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/random.hpp"
#include "cosched/knowledge/speedup_fit.hpp"
#include "cosched/knowledge/speedup_models.hpp"

namespace cosched::knowledge {
namespace {

struct LawCase {
  std::string model;
  std::vector<double> theta;  // the law's parameters (speedup_models.hpp)
  double at_three_cores;      // worked by hand from theta
};

// amdahl: t1 = 10 s, serial 20 %: a = 2, b = 8; t(3) = 2 + 8/3.
// amdahl-overhead: a = 1, b = 16, c = 0.05: t(3) = 1 + 16/3 + 0.1.
// power-law: ln t1 = ln 12, alpha = 0.5: t(3) = 12 / sqrt(3).
std::vector<LawCase> law_cases() {
  return {{"amdahl", {2.0, 8.0}, 2.0 + 8.0 / 3.0},
          {"amdahl-overhead", {1.0, 16.0, 0.05}, 1.0 + 16.0 / 3.0 + 0.1},
          {"power-law", {std::log(12.0), 0.5}, 12.0 / std::sqrt(3.0)}};
}

class EachLaw : public ::testing::TestWithParam<LawCase> {};

TEST_P(EachLaw, RecoversItsParametersFromExactPoints) {
  const LawCase& law_case = GetParam();
  const SpeedupModel& law = find_speedup_model(law_case.model);
  EXPECT_NEAR(law.seconds(law_case.theta, 3.0), law_case.at_three_cores, 1e-12);
  std::vector<CoreSample> samples;
  for (const int p : {1, 2, 4, 8, 16, 32}) samples.push_back({p, law.seconds(law_case.theta, p), 0.0});
  FitOptions options;
  options.models = {law_case.model};
  const SpeedupFit fit(samples, options);
  ASSERT_EQ(fit.models().size(), 1U);
  for (std::size_t i = 0; i < law_case.theta.size(); ++i) {
    EXPECT_NEAR(fit.models()[0].theta[i], law_case.theta[i], 1e-8 * (1.0 + std::abs(law_case.theta[i]))) << i;
  }
  EXPECT_NEAR(fit.at(3).seconds, law_case.at_three_cores, 1e-8);
  EXPECT_LT(fit.misfit_log_variance(), 1e-20);
}

TEST_P(EachLaw, EvidenceChoosesTheLawThatMadeThePoints) {
  const LawCase& law_case = GetParam();
  const SpeedupModel& law = find_speedup_model(law_case.model);
  std::vector<CoreSample> samples;
  for (const int p : {1, 2, 4, 8, 16, 32, 64}) samples.push_back({p, law.seconds(law_case.theta, p), 0.0});
  const SpeedupFit fit(samples);
  // amdahl's points are fitted as well by amdahl-overhead with no overhead (held at 0: the same AICc); the tie
  // goes to the first law of the table.
  EXPECT_EQ(fit.chosen().model, law_case.model);
  EXPECT_GT(fit.chosen().weight, 0.45);
}

INSTANTIATE_TEST_SUITE_P(Laws, EachLaw, ::testing::ValuesIn(law_cases()),
                         [](const auto& param_info) {
                           std::string name = param_info.param.model;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

TEST(SpeedupFit, TwoPointsOfAmdahlByHand) {
  // t(1) = 10, t(2) = 6: a + b = 10, a + b/2 = 6 -> b = 8, a = 2; t(4) = 4.
  FitOptions options;
  options.models = {"amdahl"};
  const SpeedupFit fit({{1, 10.0, 0.0}, {2, 6.0, 0.0}}, options);
  EXPECT_NEAR(fit.at(4).seconds, 4.0, 1e-9);
  EXPECT_NEAR(fit.models()[0].theta[0], 2.0, 1e-9);
}

TEST(SpeedupFit, ASerialFractionHeldAtZeroKeepsItsSpreadByHand) {
  // t(2) = 50, t(4) = 25: a linear speed-up, a = 0 (held at its bound), b = 100. The laws in seconds weigh a point
  // 1 / t^2: w = 1/2500, 1/625; over x = (1, 1/p), X'WX = [[2e-3, 6e-4], [6e-4, 2e-4]], det 4e-8, its inverse
  // [[5000, -15000], [-15000, 50000]]. sigma^2 = (0 + nu0 sigma0^2) / (n - k + nu0) = 2 * 0.02^2 / 3 (k = 1 free).
  // At 64 cores x'(X'WX)^-1 x = 4543.457, sd of ln t = sqrt(4543.457 sigma^2) / (100/64) = 0.7045; at 4 cores 625:
  // 0.0163. Held at 0 without its spread, 64 cores would read 0.0115: sure of a speed-up two measured counts
  // cannot tell from one that stops at 16 cores.
  FitOptions options;
  options.models = {"amdahl"};
  const SpeedupFit fit({{2, 50.0, 0.0}, {4, 25.0, 0.0}}, options);
  ASSERT_EQ(fit.models().size(), 1U);
  EXPECT_EQ(fit.models()[0].theta[0], 0.0);
  EXPECT_NEAR(fit.at(64).seconds, 100.0 / 64.0, 1e-9);
  EXPECT_NEAR(fit.at(64).log_sd, 0.7045, 5e-4);
  EXPECT_NEAR(fit.at(4).log_sd, 0.0163, 5e-4);
}

TEST(SpeedupFit, NoCountIsLessSureThanTheNearestMeasuredOneWithThePrior) {
  // Points at 2 and 4 cores farther apart than any speed-up (t(4) < t(2) / 2): the serial fraction is held at 0
  // with a large residual, and its released spread over the 64-core time (a fraction of a second) would be an sd of
  // ln t of many units. The bound: the one-count prior from the nearest measured count (4) plus one run's noise.
  FitOptions options;
  options.models = {"amdahl"};
  const SpeedupFit fit({{2, 50.0, 0.0}, {4, 10.0, 0.0}}, options);
  ASSERT_EQ(fit.models()[0].theta[0], 0.0);
  for (const int cores : {8, 16, 64}) {
    const double bound = amdahl_prior_log_ratio(4, cores).second + fit.noise_log_sd() * fit.noise_log_sd();
    const CurvePoint at = fit.at(cores);
    ASSERT_TRUE(std::isfinite(at.log_sd)) << cores;
    EXPECT_LE(at.log_sd * at.log_sd, bound * (1.0 + 1e-12)) << cores;
  }
  const double bound64 = amdahl_prior_log_ratio(4, 64).second + fit.noise_log_sd() * fit.noise_log_sd();
  EXPECT_NEAR(fit.at(64).log_sd, std::sqrt(bound64), 1e-9);  // where the spread would pass it, the bound holds it
}

TEST(SpeedupFit, PredictionsNeverRiseWithCores) {
  // A program that slows down past 16 cores, measured with 5 % noise: the closed curve never rises.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    NormalDraws noise(seed);
    std::vector<CoreSample> samples;
    for (const int p : {1, 2, 4, 8, 16, 32, 64}) {
      const double truth = 1.0 + 30.0 / p + 0.08 * std::max(0, p - 16);
      samples.push_back({p, truth * std::exp(0.05 * noise.next()), 0.0});
    }
    const std::vector<CurvePoint> curve = SpeedupFit(samples).curve(64);
    for (std::size_t p = 1; p < curve.size(); ++p) EXPECT_LE(curve[p].seconds, curve[p - 1].seconds) << seed;
  }
}

double sd_at_six_cores(const std::vector<int>& cores, const FitOptions& options, std::uint64_t seed, double noise) {
  NormalDraws draws(seed);
  std::vector<CoreSample> samples;
  for (const int p : cores) samples.push_back({p, (1.0 + 20.0 / p) * std::exp(noise * draws.next()), 0.0});
  return SpeedupFit(samples, options).at(6).log_sd;
}

TEST(SpeedupFit, UncertaintyShrinksAsPointsAreAdded) {
  const std::vector<std::vector<int>> growing{{64, 16}, {64, 16, 4}, {64, 16, 4, 1}, {64, 32, 16, 8, 4, 2, 1},
                                              {64, 32, 16, 8, 4, 2, 1, 48, 24, 12, 3}};
  // One law, exact points: the covariance alone, which only shrinks.
  FitOptions amdahl;
  amdahl.models = {"amdahl"};
  double previous = INFINITY;
  for (const auto& cores : growing) {
    const double sd = sd_at_six_cores(cores, amdahl, 1, 0.0);
    EXPECT_LT(sd, previous) << cores.size() << " points";
    previous = sd;
  }
  // Every law, 3 % noise: on average over seeds (one noisy draw may widen a fit).
  previous = INFINITY;
  for (const auto& cores : growing) {
    double sum = 0.0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) sum += sd_at_six_cores(cores, FitOptions{}, seed, 0.03);
    EXPECT_LT(sum / 40.0, previous) << cores.size() << " points";
    previous = sum / 40.0;
  }
}

TEST(SpeedupFit, AShapeNoLawFollowsIsAnchoredAtWhatWasMeasured) {
  // A cache-driven jump: 30 % faster from 16 cores on. Measured at every power of two, twice, with 1 % noise.
  NormalDraws noise(7);
  std::vector<CoreSample> samples;
  const auto truth = [](int p) { return (0.5 + 40.0 / p) * (p >= 16 ? 0.7 : 1.0); };
  for (const int p : {1, 2, 4, 8, 16, 32, 64}) {
    for (int rep = 0; rep < 2; ++rep) samples.push_back({p, truth(p) * std::exp(0.01 * noise.next()), 0.0});
  }
  const SpeedupFit fit(samples);
  EXPECT_GT(fit.misfit_log_variance(), 0.0);
  for (const int p : {1, 2, 4, 8, 16, 32, 64}) EXPECT_NEAR(std::log(fit.at(p).seconds / truth(p)), 0.0, 0.03) << p;
  EXPECT_GT(fit.at(12).log_sd, fit.at(16).log_sd);  // between measured counts the misfit counts
}

TEST(SpeedupFit, RepetitionsMeasureTheNoise) {
  NormalDraws noise(3);
  std::vector<CoreSample> samples;
  for (const int p : {1, 2, 4, 8, 16, 32, 64}) {
    for (int rep = 0; rep < 6; ++rep) samples.push_back({p, (1.0 + 20.0 / p) * std::exp(0.08 * noise.next()), 0.0});
  }
  EXPECT_NEAR(SpeedupFit(samples).noise_log_sd(), 0.08, 0.02);
}

TEST(SpeedupFit, RefusesWhatIsNotAMeasurement) {
  EXPECT_THROW(SpeedupFit({}), InputError);
  EXPECT_THROW(SpeedupFit({{0, 1.0, 0.0}}), InputError);
  EXPECT_THROW(SpeedupFit({{1, -1.0, 0.0}}), InputError);
  EXPECT_THROW(SpeedupFit({{1, NAN, 0.0}}), InputError);
  FitOptions unknown;
  unknown.models = {"no-such-law"};
  EXPECT_THROW(SpeedupFit({{1, 1.0, 0.0}, {2, 0.6, 0.0}}, unknown), UsageError);
  EXPECT_THROW((void)find_speedup_model("gustafson"), UsageError);
}

TEST(SpeedupFit, PointsAtOneCoreCountAboveOneGiveAFiniteCurveUnsureAwayFromThem) {
  // A task observed only where a plan put it (4 cores): no law can tell its serial time from its speedup.
  const SpeedupFit fit({{4, 2.0, 0.0}, {4, 2.2, 0.0}});
  const std::vector<CurvePoint> curve = fit.curve(8);
  EXPECT_NEAR(curve[3].seconds, std::sqrt(2.0 * 2.2), 0.05);
  for (std::size_t p = 1; p < curve.size(); ++p) {
    EXPECT_TRUE(std::isfinite(curve[p].seconds));
    EXPECT_LE(curve[p].seconds, curve[p - 1].seconds);
  }
  EXPECT_GT(curve[0].seconds, curve[3].seconds);  // one core: slower, between serial (2.1 s) and linear (8.4 s)
  EXPECT_LT(curve[0].seconds, 4 * curve[3].seconds);
  EXPECT_GT(curve[0].log_sd, curve[3].log_sd);     // unsure away from what was measured
  EXPECT_GT(curve[7].log_sd, curve[3].log_sd);
  EXPECT_TRUE(fit.models().empty());
}

// The prior of a task measured at one core count (amdahl_prior_log_ratio): s log-uniform on [1e-3, 1], L = ln 1000.
// From 2 cores to 1: r(s) = ln 1 - ln(s + (1 - s) / 2) = ln 2 - ln(1 + s), and the integral of ln(1 + e^u) du is
// -Li2(-e^u), so E[r] = ln 2 - (pi^2 / 12 + Li2(-0.001)) / L with Li2(-0.001) = -0.001 + 0.001^2 / 4 - ...:
// 0.693147 - 0.821468 / 6.907755 = 0.574228.
TEST(SpeedupPrior, FromTwoCoresToOneHasTheHandWorkedMean) {
  const double li2 = -1e-3 + 1e-6 / 4.0 - 1e-9 / 9.0;
  const double expected = std::log(2.0) - (M_PI * M_PI / 12.0 + li2) / std::log(1000.0);
  EXPECT_NEAR(expected, 0.574228, 1e-6);
  const auto [mean, variance] = amdahl_prior_log_ratio(2, 1);
  EXPECT_NEAR(mean, expected, 1e-6);
  // r lies in [0, ln 2]: its sd is at most ln 2 / 2. A 200000-point midpoint sum gives 0.0293620.
  EXPECT_NEAR(variance, 0.0293620, 1e-6);
  EXPECT_LT(std::sqrt(variance), std::log(2.0) / 2.0);
}

TEST(SpeedupPrior, IsZeroWhereMeasuredAndAntisymmetricBetweenTwoCounts) {
  EXPECT_EQ(amdahl_prior_log_ratio(16, 16), std::make_pair(0.0, 0.0));
  for (const auto& [p0, p] : std::vector<std::pair<int, int>>{{2, 4}, {2, 64}, {8, 3}}) {
    const auto [there, there_variance] = amdahl_prior_log_ratio(p0, p);
    const auto [back, back_variance] = amdahl_prior_log_ratio(p, p0);
    EXPECT_NEAR(there, -back, 1e-12);
    EXPECT_NEAR(there_variance, back_variance, 1e-12);
  }
  EXPECT_THROW((void)amdahl_prior_log_ratio(0, 2), std::invalid_argument);
}

// Between no speed-up (s = 1: r = 0) and a linear one (s -> 0: r = ln(p0 / p)), and nearer linear than the
// exponent-1/2 rule it replaced over a range (2 -> 64: a 200000-point midpoint sum gives -2.115311, sd 1.108313).
TEST(SpeedupPrior, LiesBetweenSerialAndLinear) {
  for (const int p : {3, 8, 64}) {
    const double mean = amdahl_prior_log_ratio(2, p).first;
    EXPECT_LT(mean, 0.0);
    EXPECT_GT(mean, std::log(2.0 / p));
  }
  const auto [mean, variance] = amdahl_prior_log_ratio(2, 64);
  EXPECT_NEAR(mean, -2.115311, 1e-5);
  EXPECT_NEAR(std::sqrt(variance), 1.108313, 1e-5);
}

// One point at 2 cores, 100 s, no repetition: the noise floor 0.02 over one run, plus the prior (above).
TEST(SpeedupFit, OneCoreCountFollowsTheAmdahlPrior) {
  const SpeedupFit fit({{2, 100.0, 0.0}});
  const CurvePoint one = fit.at(1);
  EXPECT_NEAR(one.seconds, 100.0 * std::exp(0.574228), 1e-3);  // 177.58 s
  EXPECT_NEAR(one.log_sd, std::sqrt(0.02 * 0.02 + 0.0293620), 1e-6);
  EXPECT_NEAR(fit.at(2).seconds, 100.0, 1e-9);
  EXPECT_NEAR(fit.at(2).log_sd, 0.02, 1e-9);
  EXPECT_NEAR(fit.at(64).seconds, 100.0 * std::exp(-2.115311), 1e-3);  // 12.06 s
}

TEST(SpeedupFit, CountsTheCoreCountsItsSamplesWereAt) {
  // One count says nothing measured of how a task speeds up, whether it is 1 (the laws at their bounds) or another
  // (the prior); a second count does (LaunchReplanner re-plans on it).
  EXPECT_EQ(SpeedupFit({{4, 2.0, 0.0}, {4, 2.2, 0.0}}).core_counts(), 1U);
  EXPECT_EQ(SpeedupFit({{1, 8.0, 0.0}, {1, 8.1, 0.0}}).core_counts(), 1U);
  EXPECT_EQ(SpeedupFit({{1, 8.0, 0.0}, {4, 2.2, 0.0}}).core_counts(), 2U);
  EXPECT_EQ(SpeedupFit({{1, 8.0, 0.0}, {2, 4.1, 0.0}, {4, 2.2, 0.0}, {4, 2.3, 0.0}}).core_counts(), 3U);
}

}  // namespace
}  // namespace cosched::knowledge
