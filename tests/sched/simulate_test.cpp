#include "cosched/sched/simulate.hpp"

#include <gtest/gtest.h>

#include "cosched/common/error.hpp"

namespace cosched::sched {
namespace {

SimulationConfig small_config() {
  SimulationConfig config;
  config.generator.capacities = {8, 4, 2};
  config.generator.tasks = 30;
  config.instances = 3;
  config.seed = 17;
  config.algorithms = {"d-list-lpt", "t-pack-ff"};
  return config;
}

TEST(SimulationTest, IsDeterministicForASeedAndRatiosAreAtLeastOne) {
  const auto first = run_simulation(small_config());
  const auto second = run_simulation(small_config());
  ASSERT_EQ(first.size(), 6u);
  ASSERT_EQ(second.size(), 6u);
  for (std::size_t k = 0; k < first.size(); ++k) {
    EXPECT_EQ(first[k].instance, k / 2);
    EXPECT_EQ(first[k].algorithm, k % 2 == 0 ? "d-list-lpt" : "t-pack-ff");
    EXPECT_EQ(first[k].makespan, second[k].makespan);
    EXPECT_EQ(first[k].lower_bound, second[k].lower_bound);
    EXPECT_GE(first[k].ratio, 1.0 - 1e-12);
    EXPECT_LE(first[k].ratio, k % 2 == 0 ? 6.0 : 7.0);  // Theorem 3 with d = 3
    EXPECT_DOUBLE_EQ(first[k].ratio, first[k].makespan / first[k].lower_bound);
  }
  auto other = small_config();
  other.seed = 18;
  EXPECT_NE(run_simulation(other)[0].makespan, first[0].makespan);
}

TEST(SimulationTest, ReportsProgress) {
  std::vector<std::size_t> done;
  (void)run_simulation(small_config(), [&](std::size_t k, std::size_t total) {
    EXPECT_EQ(total, 3u);
    done.push_back(k);
  });
  EXPECT_EQ(done, (std::vector<std::size_t>{1, 2, 3}));
}

TEST(SimulationTest, SummariesAreMeanMedianAndMax) {
  std::vector<SimulationRecord> records{{0, "a", 0, 0, 1.0, 0.5}, {1, "a", 0, 0, 3.0, 1.5}, {2, "a", 0, 0, 2.0, 1.0},
                                        {3, "a", 0, 0, 6.0, 1.0}, {0, "b", 0, 0, 1.5, 2.0}};
  const auto summaries = summarise(records, {"a", "b", "c"});
  ASSERT_EQ(summaries.size(), 3u);
  EXPECT_EQ(summaries[0].runs, 4u);
  EXPECT_DOUBLE_EQ(summaries[0].mean_ratio, 3.0);
  EXPECT_DOUBLE_EQ(summaries[0].median_ratio, 2.5);
  EXPECT_DOUBLE_EQ(summaries[0].max_ratio, 6.0);
  EXPECT_DOUBLE_EQ(summaries[0].mean_seconds, 1.0);
  EXPECT_DOUBLE_EQ(summaries[1].median_ratio, 1.5);
  EXPECT_EQ(summaries[2].runs, 0u);
}

TEST(SimulationTest, UnknownAlgorithmIsAUsageError) {
  auto config = small_config();
  config.algorithms = {"d-list-random"};
  EXPECT_THROW((void)run_simulation(config), UsageError);
}

}  // namespace
}  // namespace cosched::sched
