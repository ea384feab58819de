// The adaptive strategy's first round (strategy.hpp) leaves out a core count the task's own runs already tell:
// within a factor 2 of it, without fast chunks, at the production amount or at two amounts of work.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "cosched/knowledge/strategy.hpp"

namespace cosched::knowledge {
namespace {

// The counts of the first round on a 64-core node without fast memory: 64, the reference 16 and 4 (strategy.hpp).
std::set<int> first_round_cores(const std::vector<Measurement>& known) {
  StrategyInput input;
  input.node = {64, 0};
  input.work = {2000.0, {10.0, 20.0}};
  input.known = known;
  std::set<int> cores;
  for (const PlannedRun& run : find_measurement_strategy("adaptive").next_runs(input)) cores.insert(run.cores);
  return cores;
}

TEST(AdaptiveFirstRound, NothingKnownMeasuresAllThreeCounts) {
  EXPECT_EQ(first_round_cores({}), (std::set<int>{64, 16, 4}));
}

// A naive first batch ran the kind's tasks at 2 cores, 500 and 1000 units: 2 is within a factor 2 of 4 (not of
// 16 or 64), at two amounts: 4 is left out.
TEST(AdaptiveFirstRound, ACountWithinAFactorTwoAtTwoAmountsIsLeftOut) {
  EXPECT_EQ(first_round_cores({{2, 0, 500.0, 300.0}, {2, 0, 1000.0, 590.0}}), (std::set<int>{64, 16}));
}

// One run at the production amount (2000 units) at 40 cores: within a factor 2 of 64 (40 / 64 = 0.63), not of 16
// (2.5): 64 is left out. The reference count 16 is measured whatever is known (fast memory is measured there).
TEST(AdaptiveFirstRound, AProductionRunTellsItsCountAndTheReferenceStays) {
  EXPECT_EQ(first_round_cores({{40, 0, 2000.0, 90.0}, {16, 0, 2000.0, 200.0}}), (std::set<int>{16, 4}));
}

// Not enough: one short amount at 4 cores, even run twice (its fixed cost unseparated), or runs at 9 cores (9 / 4 =
// 2.25, beyond a factor 2).
TEST(AdaptiveFirstRound, OneShortAmountOrAFarCountIsNotEnough) {
  EXPECT_EQ(first_round_cores({{4, 0, 10.0, 3.0}}), (std::set<int>{64, 16, 4}));
  EXPECT_EQ(first_round_cores({{4, 0, 10.0, 3.0}, {4, 0, 10.0, 3.1}}), (std::set<int>{64, 16, 4}));
  EXPECT_EQ(first_round_cores({{9, 0, 500.0, 60.0}, {9, 0, 1000.0, 115.0}}), (std::set<int>{64, 16, 4}));
}

}  // namespace
}  // namespace cosched::knowledge
