#include "cosched/sched/simulate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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

// The outputs of a run: a CSV row per (instance, algorithm) with the run's parameters, the JSON summary and the
// table, the profile named "mixed" unless one is fixed.
TEST(SimulationTest, TheOutputsCarryTheRunsParametersAndEveryRecord) {
  SimulationConfig config = small_config();
  const auto records = run_simulation(config);
  const auto summaries = summarise(records, config.algorithms);
  const std::string csv = simulation_csv(config, records);
  EXPECT_EQ(csv.rfind("instance,d,resources,tasks,profile,algorithm,makespan,lower_bound,ratio,seconds\n", 0), 0u);
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), records.size() + 1);
  EXPECT_NE(csv.find("\n0,3,8;4;2,30,mixed,d-list-lpt,"), std::string::npos) << csv;
  const nlohmann::json json = simulation_summary_json(config, summaries);
  EXPECT_EQ(json.at("resources"), (std::vector<int>{8, 4, 2}));
  EXPECT_EQ(json.at("tasks"), 30u);
  EXPECT_EQ(json.at("instances"), 3u);
  EXPECT_EQ(json.at("seed"), 17u);
  EXPECT_EQ(json.at("profile"), "mixed");
  ASSERT_EQ(json.at("algorithms").size(), 2u);
  EXPECT_EQ(json.at("algorithms").at("t-pack-ff").at("max_ratio"), summaries[1].max_ratio);
  const std::string table = format_simulation_summary(config, summaries);
  EXPECT_EQ(table.rfind("d = 3 (8,4,2), 30 tasks, 3 instances, seed 17\n", 0), 0u) << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 4) << table;  // parameters, header, two algorithms
  config.generator.profile = parse_profile("power-max");
  EXPECT_EQ(simulation_summary_json(config, summaries).at("profile"), "power-max");
  EXPECT_NE(simulation_csv(config, records).find(",power-max,"), std::string::npos);
}

}  // namespace
}  // namespace cosched::sched
