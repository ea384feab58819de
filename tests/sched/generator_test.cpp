#include "cosched/sched/generator.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "cosched/common/error.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

TEST(RandomTest, DistributionsStayInTheirRanges) {
  Random random(1);
  for (int k = 0; k < 100000; ++k) {
    const double u = random.uniform01();
    EXPECT_TRUE(u >= 0.0 && u < 1.0);
    const double above = random.uniform_above(0.0, 0.2);
    EXPECT_TRUE(above > 0.0 && above <= 0.2);
    const double below = random.uniform_below(0.3, 1.0);
    EXPECT_TRUE(below >= 0.3 && below < 1.0);
    EXPECT_LT(random.index(6), 6u);
  }
}

// Pins the stream: the engine is fully specified by the standard and the distributions are ours.
TEST(RandomTest, SequenceIsFixedForASeed) {
  Random a(2024), b(2024);
  for (int k = 0; k < 1000; ++k) EXPECT_EQ(a.uniform01(), b.uniform01());
  std::mt19937_64 engine(5489u);
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ULL);  // the standard's required 10000th value
}

TEST(GeneratorTest, ParametersFollowSection5_4) {
  Random random(7);
  std::set<std::string> kinds;
  for (int k = 0; k < 20000; ++k) {
    const auto parameters = draw_parameters(random, 4, std::nullopt);
    kinds.insert(profile_name(parameters.kind));
    EXPECT_TRUE(parameters.work > 0.0 && parameters.work <= 1.0);
    EXPECT_TRUE(parameters.s0 > 0.0 && parameters.s0 <= 0.2);
    double sum = 0.0;
    for (double s : parameters.s) {
      EXPECT_GT(s, 0.0);
      sum += s;
    }
    EXPECT_NEAR(sum, 1.0 - parameters.s0, 1e-12);
    for (double alpha : parameters.alpha) EXPECT_TRUE(alpha >= 0.3 && alpha < 1.0);
  }
  EXPECT_EQ(kinds.size(), 6u);
}

TEST(GeneratorTest, ProfilesMatchTheirFormulas) {
  const AllocationSpace space({8, 4});
  SyntheticParameters parameters;
  parameters.work = 2.0;
  parameters.s0 = 0.1;
  parameters.s = {0.6, 0.3};
  parameters.alpha = {0.5, 0.8};
  const std::vector<int> p{4, 2};
  const auto time = [&](SpeedupLaw law, Combination combination) {
    parameters.kind = {law, combination};
    return make_synthetic_profile(space, parameters)->time_at(space, p);
  };
  EXPECT_NEAR(time(SpeedupLaw::amdahl, Combination::sum), 2.0 * (0.1 + 0.6 / 4 + 0.3 / 2), 1e-12);
  EXPECT_NEAR(time(SpeedupLaw::amdahl, Combination::product), 2.0 * (0.1 + 0.9 / 8), 1e-12);
  EXPECT_NEAR(time(SpeedupLaw::amdahl, Combination::max), 2.0 * (0.1 + std::max(0.6 / 4, 0.3 / 2)), 1e-12);
  EXPECT_NEAR(time(SpeedupLaw::power_law, Combination::sum),
              2.0 * (0.6 / std::pow(4, 0.5) + 0.3 / std::pow(2, 0.8)), 1e-12);
  EXPECT_NEAR(time(SpeedupLaw::power_law, Combination::product), 2.0 / (std::pow(4, 0.5) * std::pow(2, 0.8)), 1e-12);
  EXPECT_NEAR(time(SpeedupLaw::power_law, Combination::max),
              2.0 * std::max(0.6 / std::pow(4, 0.5), 0.3 / std::pow(2, 0.8)), 1e-12);
  const std::vector<int> no_fast{4, 0};
  EXPECT_EQ(make_synthetic_profile(space, parameters)->time_at(space, no_fast), testing::kInf);
}

// The closure must be the identity on generated tasks, and time_at must equal fill_times bit for bit.
TEST(GeneratorTest, TimesAreMonotoneAndPointEvaluationAgrees) {
  GeneratorConfig config;
  config.capacities = {6, 5, 4};
  config.tasks = 60;
  const Instance instance = generate_instance(config, 3);
  std::vector<double> times(instance.space().size());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    instance.tasks()[j].profile->fill_times(instance.space(), times);
    std::vector<double> closed = times;
    apply_monotone_closure(instance.space(), closed);
    EXPECT_EQ(closed, times) << "task " << j;
    for (std::size_t index = 0; index < times.size(); index += 7) {
      EXPECT_EQ(instance.time(j, instance.space().decode(index)), times[index]);
    }
  }
}

TEST(GeneratorTest, SameSeedSameInstanceDifferentSeedDifferentInstance) {
  GeneratorConfig config;
  config.capacities = {8, 4};
  config.tasks = 20;
  const Instance a = generate_instance(config, instance_seed(5, 0));
  const Instance b = generate_instance(config, instance_seed(5, 0));
  const Instance c = generate_instance(config, instance_seed(5, 1));
  std::vector<double> ta(a.space().size()), tb(ta.size()), tc(ta.size());
  bool any_difference = false;
  for (std::size_t j = 0; j < a.task_count(); ++j) {
    a.tasks()[j].profile->fill_times(a.space(), ta);
    b.tasks()[j].profile->fill_times(b.space(), tb);
    c.tasks()[j].profile->fill_times(c.space(), tc);
    EXPECT_EQ(ta, tb);
    any_difference = any_difference || ta != tc;
  }
  EXPECT_TRUE(any_difference);
}

TEST(GeneratorTest, FixedProfileAndNames) {
  GeneratorConfig config;
  config.capacities = {4};
  config.tasks = 10;
  config.profile = parse_profile("power-max");
  EXPECT_EQ(profile_name(*config.profile), "power-max");
  EXPECT_THROW((void)parse_profile("gustafson"), UsageError);
  for (const auto kind : all_profiles()) EXPECT_EQ(parse_profile(profile_name(kind)), kind);
  EXPECT_EQ(generate_instance(config, 1).task_count(), 10u);
}

}  // namespace
}  // namespace cosched::sched
