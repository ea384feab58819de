// Downey's speedup model (seed 000 Sec. 7, digest §3.2): the formulas, their joins, S(1) = 1, monotonicity bit for
// bit, the plateau at A, and the seeded draws of make_moldable_downey.
#include "cosched/online/downey.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/sched/generator.hpp"
#include "support/files.hpp"

namespace cosched::online {
namespace {

struct DowneyCase {
  double a;
  double sigma;
};

void PrintTo(const DowneyCase& c, std::ostream* out) { *out << "A=" << c.a << " sigma=" << c.sigma; }

class DowneySpeedup : public ::testing::TestWithParam<DowneyCase> {};

// Where one piece of S hands over to the next.
std::vector<double> breakpoints(const DowneyCase& c) {
  if (c.sigma <= 1) return {c.a, 2 * c.a - 1};
  return {c.a + c.a * c.sigma - c.sigma};
}

TEST_P(DowneySpeedup, IsOneOnOneProcessor) { EXPECT_EQ(downey_speedup(1.0, GetParam().a, GetParam().sigma), 1.0); }

TEST_P(DowneySpeedup, PiecesJoinAtTheirBreakpoints) {
  const auto [a, sigma] = GetParam();
  for (const double b : breakpoints(GetParam())) {
    if (b <= 1.0) continue;
    const double below = downey_speedup(b * (1 - 1e-12), a, sigma);
    const double above = downey_speedup(b * (1 + 1e-12), a, sigma);
    EXPECT_NEAR(below, above, 1e-9 * a) << "at n = " << b;
  }
}

TEST_P(DowneySpeedup, NeverDecreasesAndStaysBetweenOneAndA) {
  const auto [a, sigma] = GetParam();
  double previous = 1.0;
  for (int n = 1; n <= 2000; ++n) {
    const double s = downey_speedup(n, a, sigma);
    EXPECT_GE(s, previous) << "n = " << n;
    EXPECT_GE(s, 1.0);
    EXPECT_LE(s, a);
    previous = s;
  }
  // Real n too, finely around the breakpoints, where two formulas meet.
  for (const double b : breakpoints(GetParam())) {
    previous = downey_speedup(std::max(1.0, b - 1), a, sigma);
    for (double n = std::max(1.0, b - 1); n <= b + 1; n += 1.0 / 1024) {
      const double s = downey_speedup(n, a, sigma);
      EXPECT_GE(s, previous) << "n = " << n;
      previous = s;
    }
  }
}

TEST_P(DowneySpeedup, ReachesAAfterTheLastBreakpoint) {
  const auto [a, sigma] = GetParam();
  const double last = breakpoints(GetParam()).back();
  EXPECT_EQ(downey_speedup(std::max(1.0, last) + 0.5, a, sigma), a);
  EXPECT_EQ(downey_speedup(10 * a + 10, a, sigma), a);
  if (last > 2 && sigma > 0) {  // sigma = 0 is flat from A on
    EXPECT_LT(downey_speedup(last - 1, a, sigma), a);
  }
}

INSTANTIATE_TEST_SUITE_P(LowAndHighVariance, DowneySpeedup,
                         ::testing::Values(DowneyCase{1.0, 0.0}, DowneyCase{1.0, 1.5}, DowneyCase{1.7, 0.3},
                                           DowneyCase{10.0, 0.0}, DowneyCase{10.0, 0.5}, DowneyCase{10.0, 1.0},
                                           DowneyCase{10.0, 2.0}, DowneyCase{37.25, 1e-9}, DowneyCase{64.0, 1.3},
                                           DowneyCase{511.9, 0.99}, DowneyCase{512.0, 1.999}));

TEST(DowneyFormulas, MatchTheDigestAtSamplePoints) {
  // sigma <= 1, first piece: A n / (A + sigma (n - 1) / 2).
  EXPECT_DOUBLE_EQ(downey_speedup(5, 10, 0.5), 10.0 * 5 / (10 + 0.5 * 4 / 2));
  // sigma <= 1, second piece: A n / (sigma (A - 1/2) + n (1 - sigma / 2)).
  EXPECT_DOUBLE_EQ(downey_speedup(15, 10, 0.5), 10.0 * 15 / (0.5 * 9.5 + 15 * 0.75));
  // sigma = 0: linear up to A, then flat.
  EXPECT_DOUBLE_EQ(downey_speedup(7, 10, 0.0), 7.0);
  EXPECT_EQ(downey_speedup(11, 10, 0.0), 10.0);
  // sigma >= 1: n A (sigma + 1) / (sigma (n + A - 1) + A).
  EXPECT_DOUBLE_EQ(downey_speedup(5, 10, 2.0), 5.0 * 10 * 3 / (2 * 14.0 + 10));
  EXPECT_DOUBLE_EQ(downey_speedup(20, 10, 2.0), 20.0 * 10 * 3 / (2 * 29.0 + 10));
  EXPECT_EQ(downey_speedup(28, 10, 2.0), 10.0);  // beyond A + A sigma - sigma = 28
}

TEST(DowneyFormulas, ParametersOutsideTheModelAreRefused) {
  EXPECT_NO_THROW(check_downey_parameters(1.0, 0.0, "job"));
  EXPECT_NO_THROW(check_downey_parameters(512.0, 2.0, "job"));
  EXPECT_THROW(check_downey_parameters(0.5, 1.0, "job"), InputError);
  EXPECT_THROW(check_downey_parameters(NAN, 1.0, "job"), InputError);
  EXPECT_THROW(check_downey_parameters(4.0, -0.1, "job"), InputError);
  EXPECT_THROW(check_downey_parameters(4.0, INFINITY, "job"), InputError);
}

TEST(MoldableDowney, DrawsAandSigmaInTheirRangesAndKeepsTheLoggedRuntime) {
  std::vector<LoggedJob> jobs;
  for (int k = 0; k < 2000; ++k) jobs.push_back({10.0 + k, 1 + k % 600});
  const auto moldable = make_moldable_downey(jobs, 512, 42);
  ASSERT_EQ(moldable.size(), jobs.size());
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const double p = std::min(jobs[k].procs, 512);  // sizes above m are clamped to m
    EXPECT_GE(moldable[k].parallelism, p);
    EXPECT_LE(moldable[k].parallelism, 512.0);
    EXPECT_GE(moldable[k].sigma, 0.0);
    EXPECT_LT(moldable[k].sigma, 2.0);
    const double speedup = downey_speedup(p, moldable[k].parallelism, moldable[k].sigma);
    EXPECT_EQ(moldable[k].sequential_time, jobs[k].runtime * speedup);
  }
}

TEST(MoldableDowney, FollowsTheDocumentedDrawsAndIsReproducible) {
  const std::vector<LoggedJob> jobs{{100.0, 4}, {50.0, 1}, {7.0, 64}};
  const auto first = make_moldable_downey(jobs, 128, 7);
  EXPECT_EQ(first, make_moldable_downey(jobs, 128, 7));
  EXPECT_NE(first, make_moldable_downey(jobs, 128, 8));
  sched::Random random(7);  // mt19937_64(seed), A then sigma per job, u = (engine() >> 11) * 2^-53
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const double p = jobs[k].procs;
    EXPECT_EQ(first[k].parallelism, p + (128 - p) * random.uniform01());
    EXPECT_EQ(first[k].sigma, 2.0 * random.uniform01());
  }
}

TEST(MoldableDowney, BadInputNamesTheJob) {
  const std::vector<LoggedJob> zero{{5.0, 1}, {0.0, 2}};
  const std::string what = test_support::input_error_of([&] { (void)make_moldable_downey(zero, 16, 1); });
  EXPECT_NE(what.find("Downey model: job 1: the runtime"), std::string::npos) << what;
  const std::vector<LoggedJob> one{{5.0, 1}};
  EXPECT_THROW((void)make_moldable_downey(one, 0, 1), InputError);
}

}  // namespace
}  // namespace cosched::online
