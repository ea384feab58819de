// Measurement strategies (strategy.hpp): every strategy (one test body) asks for runs on the node, cheapest first,
// quotes their cost once something is known, and is done once it has what it asked for; then each one's own
// point set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/strategy.hpp"

namespace cosched::knowledge {
namespace {

double truth(int cores, int chunks, double work) {
  return 0.3 + work * 0.01 * (0.05 + 0.95 / cores) * (chunks > 0 ? 0.8 : 1.0);
}

StrategyInput input_for(const NodeShape& node, TaskWork work = {1000.0, {10.0, 20.0}}) {
  StrategyInput input;
  input.node = node;
  input.work = std::move(work);
  return input;
}

void measure(StrategyInput& input, const std::vector<PlannedRun>& runs) {
  for (const PlannedRun& run : runs) {
    input.known.push_back({run.cores, run.fast_chunks, run.work, truth(run.cores, run.fast_chunks, run.work)});
  }
}

class EachStrategy : public ::testing::TestWithParam<std::string> {};

TEST_P(EachStrategy, AsksForRunsOnTheNodeCheapestFirstAndStopsWhenItHasThem) {
  const MeasurementStrategy& strategy = find_measurement_strategy(GetParam());
  EXPECT_EQ(strategy.name(), GetParam());
  StrategyInput input = input_for({16, 4});
  std::vector<PlannedRun> runs = strategy.next_runs(input);
  ASSERT_FALSE(runs.empty());
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const PlannedRun& run = runs[k];
    EXPECT_TRUE(run.cores >= 1 && run.cores <= 16 && run.fast_chunks >= 0 && run.fast_chunks <= 4);
    EXPECT_TRUE(std::isnan(run.estimated_seconds));  // nothing known yet
    if (k > 0) {  // least work first, then most cores
      EXPECT_TRUE(runs[k - 1].work < run.work || (runs[k - 1].work == run.work && runs[k - 1].cores >= run.cores));
    }
  }
  // Measure the first run alone: the others are quoted from it, cautiously (at least their true cost).
  measure(input, {runs.front()});
  runs = strategy.next_runs(input);
  for (const PlannedRun& run : runs) {
    EXPECT_GE(run.estimated_seconds, truth(run.cores, run.fast_chunks, run.work) * (1 - 1e-9));
  }
  measure(input, runs);
  const FittedTask fit(input.node, input.work, input.known);
  input.fit = &fit;
  EXPECT_TRUE(strategy.next_runs(input).empty());
}

INSTANTIATE_TEST_SUITE_P(Strategies, EachStrategy, ::testing::ValuesIn(measurement_strategy_names()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

std::multiset<std::tuple<int, int, double>> points_of(const std::vector<PlannedRun>& runs) {
  std::multiset<std::tuple<int, int, double>> points;
  for (const PlannedRun& run : runs) points.insert({run.cores, run.fast_chunks, run.work});
  return points;
}

TEST(Strategies, HalvingCores) {
  EXPECT_EQ(halving_cores(64), (std::vector<int>{64, 32, 16, 8, 4, 2, 1}));
  EXPECT_EQ(halving_cores(56), (std::vector<int>{56, 28, 14, 7, 4, 2, 1}));
  EXPECT_EQ(halving_cores(64, 4), (std::vector<int>{64, 16, 4, 1}));
  EXPECT_EQ(halving_cores(1), (std::vector<int>{1}));
}

TEST(Strategies, ExhaustiveIsEveryCoreCountAtNoneHalfAndAllChunksTwice) {
  const std::vector<PlannedRun> runs = find_measurement_strategy("exhaustive").next_runs(input_for({64, 16}));
  EXPECT_EQ(runs.size(), 64U * 3U * 2U);
  for (const PlannedRun& run : runs) {
    EXPECT_EQ(run.work, 1000.0);
    EXPECT_TRUE(run.fast_chunks == 0 || run.fast_chunks == 8 || run.fast_chunks == 16);
  }
}

TEST(Strategies, SparseIsTheHalvingCountsAndFastMemoryAtOneCount) {
  const std::vector<PlannedRun> runs = find_measurement_strategy("sparse").next_runs(input_for({64, 16}));
  const std::multiset<std::tuple<int, int, double>> expected{
      {64, 0, 1000.0}, {32, 0, 1000.0}, {16, 0, 1000.0}, {16, 0, 1000.0}, {8, 0, 1000.0}, {4, 0, 1000.0},
      {2, 0, 1000.0},  {1, 0, 1000.0},  {16, 8, 1000.0}, {16, 16, 1000.0}};
  EXPECT_EQ(points_of(runs), expected);
}

TEST(Strategies, ShortRunsAreTheSparsePointsAtSmallAmounts) {
  // 16 cores, 4 chunks: the reference count is 4. Two amounts at every count, grown with the cores above it.
  const std::vector<PlannedRun> runs = find_measurement_strategy("short-runs").next_runs(input_for({16, 4}));
  const std::multiset<std::tuple<int, int, double>> expected{
      {16, 0, 40.0}, {16, 0, 80.0}, {8, 0, 20.0}, {8, 0, 40.0}, {4, 0, 10.0}, {4, 0, 20.0},
      {4, 0, 10.0},  // the reference count twice: the noise
      {4, 2, 20.0},  {4, 4, 20.0},  // fast memory at the reference count, its larger amount
      {2, 0, 10.0},  {2, 0, 20.0}, {1, 0, 10.0}, {1, 0, 20.0}};
  EXPECT_EQ(points_of(runs), expected);
  // A task that cannot be shortened is profiled as sparse does.
  EXPECT_EQ(points_of(find_measurement_strategy("short-runs").next_runs(input_for({16, 0}, {1000.0, {}}))),
            points_of(find_measurement_strategy("sparse").next_runs(input_for({16, 0}, {1000.0, {}}))));
}

TEST(Strategies, AdaptiveMeasuresWhereThePlanPutsTheTask) {
  const MeasurementStrategy& adaptive = find_measurement_strategy("adaptive");
  StrategyInput input = input_for({64, 0});
  const std::vector<PlannedRun> first = adaptive.next_runs(input);
  std::set<int> cores;
  for (const PlannedRun& run : first) cores.insert(run.cores);
  EXPECT_EQ(cores, (std::set<int>{64, 16, 4}));
  measure(input, first);
  const FittedTask fit(input.node, input.work, input.known);
  input.fit = &fit;
  EXPECT_TRUE(adaptive.next_runs(input).empty());  // no plan yet: nothing to refine
  input.planned = PlannedAllocation{6, 0};
  input.options.tolerance = 0.0;  // every unmeasured point is uncertain enough
  std::set<int> refined;
  for (const PlannedRun& run : adaptive.next_runs(input)) refined.insert(run.cores);
  EXPECT_TRUE(refined.count(6) == 1);
  EXPECT_TRUE(std::all_of(refined.begin(), refined.end(), [](int p) { return p == 3 || p == 6 || p == 12; }));
  input.options.tolerance = 1.0;  // nothing is uncertain enough
  EXPECT_TRUE(adaptive.next_runs(input).empty());
}

// The first short runs of a task nothing is known of: the strategy's cheapest run (the least amount, on the most
// cores that run it) and that point at its next amount; none for a task that cannot be shortened.
TEST(Strategies, TheFirstShortRunsAreTheCheapestPointAtTwoAmounts) {
  const auto points = [](const std::vector<PlannedRun>& runs) {
    std::vector<std::tuple<int, int, double>> found;
    for (const PlannedRun& run : runs) found.emplace_back(run.cores, run.fast_chunks, run.work);
    return found;
  };
  using Points = std::vector<std::tuple<int, int, double>>;
  EXPECT_EQ(points(first_short_runs(find_measurement_strategy("adaptive"), input_for({64, 16}))),
            (Points{{16, 0, 10.0}, {16, 0, 20.0}}));  // 64 cores run 40 and 80: not the cheapest
  EXPECT_EQ(points(first_short_runs(find_measurement_strategy("short-runs"), input_for({16, 4}))),
            (Points{{4, 0, 10.0}, {4, 0, 20.0}}));
  EXPECT_TRUE(first_short_runs(find_measurement_strategy("adaptive"), input_for({64, 16}, {1000.0, {}})).empty());
}

TEST(Strategies, AnUnknownNameIsRefused) {
  EXPECT_THROW((void)find_measurement_strategy("guess"), UsageError);
  EXPECT_EQ(measurement_strategy_names(), (std::vector<std::string>{"exhaustive", "sparse", "short-runs", "adaptive"}));
}

}  // namespace
}  // namespace cosched::knowledge
