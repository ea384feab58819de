// The learning loop's queue (profiler::measurement_order, learning.hpp): which kind is offered the next profiling run.
#include <gtest/gtest.h>

#include <vector>

#include "cosched/profiler/learning.hpp"

namespace cosched::profiler {
namespace {

// By hand: kinds 0-5 as after a naive first batch with one new program. Kind 3 was never measured (group 0);
// kinds 1 and 4 ran at one core count only (group 1: 1 has the larger weight, 40 s against 10 s); kinds 0, 2 and
// 5 ran at two or more counts (group 2, by weight: 5 at 300 s, 0 at 200 s, 2 at 50 s). A heavy kind whose curve
// is known waits for the light ones whose curve is a guess.
TEST(MeasurementOrder, NeverMeasuredThenOneCoreCountThenTheRestEachHeaviestFirst) {
  const std::vector<KindPriority> kinds{{true, 3, 200.0}, {true, 1, 40.0}, {true, 2, 50.0},
                                        {false, 0, 0.0},  {true, 1, 10.0}, {true, 5, 300.0}};
  EXPECT_EQ(measurement_order(kinds), (std::vector<std::size_t>{3, 1, 4, 5, 0, 2}));
}

// A kind known only from runs with fast chunks counts no core count, as one known at one count: its speed-up is a
// guess too. Equal kinds keep their order.
TEST(MeasurementOrder, NoCoreCountCountsAsOneAndTiesKeepTheirOrder) {
  const std::vector<KindPriority> kinds{{true, 2, 5.0}, {true, 0, 1.0}, {true, 1, 1.0}, {false, 0, 0.0},
                                        {false, 0, 0.0}};
  EXPECT_EQ(measurement_order(kinds), (std::vector<std::size_t>{3, 4, 1, 2, 0}));
}

TEST(MeasurementOrder, NoKindsNoOrder) { EXPECT_TRUE(measurement_order({}).empty()); }

}  // namespace
}  // namespace cosched::profiler
