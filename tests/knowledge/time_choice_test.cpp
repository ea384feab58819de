// Which time of a fitted allocation's distribution a profile holds (task_fit.hpp, TimeChoice): the median, the
// expected value a plan is chosen on, a cautious quantile — each the median times its factor, closed again.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cosched/knowledge/random.hpp"
#include "cosched/knowledge/task_fit.hpp"

namespace cosched::knowledge {
namespace {

// A task measured at few core counts of a 32-core node without and with fast memory: its sd grows away from them.
FittedTask sparse_fit() {
  NormalDraws noise(5);
  std::vector<Measurement> runs;
  for (const int p : {1, 2, 4}) {
    for (int rep = 0; rep < 2; ++rep) runs.push_back({p, 0, 1.0, (2.0 + 30.0 / p) * std::exp(0.04 * noise.next())});
  }
  runs.push_back({4, 4, 1.0, 0.8 * (2.0 + 30.0 / 4)});
  return FittedTask({32, 4}, TaskWork{}, runs);
}

double time_of(const FittedTask& fit, const TimeChoice& choice, int cores, int chunks) {
  return fit.profile(choice)->time_at(fit.space(), std::vector<int>{cores, chunks});
}

// Each expected time is the median profile's time times e^(sd^2 / 2), closed again: exactly the least of that and
// the expected times with one core or one chunk fewer. The cautious time is at most the median times e^(1.5 sd), and
// the expected time charges the count carried farthest from the runs more than a measured one.
TEST(TimeChoice, EachTimeIsTheMedianTimesItsFactor) {
  const FittedTask fit = sparse_fit();
  EXPECT_EQ(fit.profile(kMedianTimes), fit.profile());
  for (int p = 1; p <= 32; ++p) {
    for (int c = 0; c <= 4; ++c) {
      const double sd = fit.at(p, c).log_sd;
      const double median = time_of(fit, kMedianTimes, p, c);
      const double expected = time_of(fit, kExpectedTimes, p, c);
      double closed = median * std::exp(0.5 * sd * sd);
      if (p > 1) closed = std::min(closed, time_of(fit, kExpectedTimes, p - 1, c));
      if (c > 0) closed = std::min(closed, time_of(fit, kExpectedTimes, p, c - 1));
      EXPECT_NEAR(expected / closed, 1.0, 1e-12) << p << " cores, " << c << " chunks";
      EXPECT_GE(expected, median) << p << " cores, " << c << " chunks";
      EXPECT_LE(time_of(fit, cautious_times(1.5), p, c), median * std::exp(1.5 * sd) * (1 + 1e-12))
          << p << " cores, " << c << " chunks";
    }
  }
  const double measured = time_of(fit, kExpectedTimes, 4, 0) / time_of(fit, kMedianTimes, 4, 0);
  const double carried = time_of(fit, kExpectedTimes, 32, 0) / time_of(fit, kMedianTimes, 32, 0);
  EXPECT_GT(carried, measured) << fit.at(4, 0).log_sd << " " << fit.at(32, 0).log_sd;
}

// A task measured at one core count only: its times at the others follow the prior (speedup_fit.hpp), whose sd
// grows with the cores faster than its median falls far from the measured count — the median's factor alone would
// make more cores cost more there; closed again, they never do.
TEST(TimeChoice, ExpectedTimesAreClosedAgain) {
  const std::vector<Measurement> runs = {{1, 0, 1.0, 10.0}, {1, 0, 1.0, 10.0}};
  const FittedTask fit({64, 0}, TaskWork{}, runs);
  const auto expected = fit.profile(kExpectedTimes);
  bool factor_alone_grows = false;
  for (int p = 2; p <= 64; ++p) {
    const CurvePoint at = fit.at(p, 0);
    const CurvePoint before = fit.at(p - 1, 0);
    factor_alone_grows = factor_alone_grows || at.seconds * std::exp(0.5 * at.log_sd * at.log_sd) >
                                                   before.seconds * std::exp(0.5 * before.log_sd * before.log_sd);
    EXPECT_LE(expected->time_at(fit.space(), std::vector<int>{p}),
              expected->time_at(fit.space(), std::vector<int>{p - 1}));
  }
  EXPECT_TRUE(factor_alone_grows);  // else this case would not test the closure
}

}  // namespace
}  // namespace cosched::knowledge
