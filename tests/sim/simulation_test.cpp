// The simulation study over every registered algorithm (sim/simulation.hpp): "all" is every algorithm that
// schedules the generated instances, the sim core's planners included; names are looked up in the sim core's
// table; an unknown one is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/simulation.hpp"

namespace cosched::sim {
namespace {

sched::SimulationConfig two_resources(std::vector<std::string> algorithms) {
  sched::SimulationConfig config;
  config.generator.capacities = {3, 2};
  config.generator.tasks = 4;
  config.instances = 1;
  config.algorithms = std::move(algorithms);
  return config;
}

TEST(Simulation, AllIsEveryRegisteredAlgorithmThatApplies) {
  const sched::SimulationConfig config = with_registered_algorithms(two_resources({"all"}));
  for (const std::string& name : algorithm_names()) {
    const bool kept = std::find(config.algorithms.begin(), config.algorithms.end(), name) != config.algorithms.end();
    EXPECT_EQ(kept, name.rfind("bsp-", 0) != 0) << name;
  }
  EXPECT_EQ(&config.find_algorithm("model-search"), &find_algorithm("model-search"));
}

TEST(Simulation, NamesAreTheSimCoresAndAnUnknownOneIsRefused) {
  EXPECT_EQ(with_registered_algorithms(two_resources({"model-search", "t-list-lpt"})).algorithms,
            (std::vector<std::string>{"model-search", "t-list-lpt"}));
  EXPECT_THROW((void)with_registered_algorithms(two_resources({"no-such-algorithm"})), UsageError);
}

}  // namespace
}  // namespace cosched::sim
