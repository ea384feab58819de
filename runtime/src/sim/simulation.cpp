#include "cosched/sim/simulation.hpp"

#include "cosched/sim/algorithms.hpp"

namespace cosched::sim {

sched::SimulationConfig with_registered_algorithms(sched::SimulationConfig config) {
  config.find_algorithm = find_algorithm;  // every registered algorithm, the sim core's planners too
  const bool all = config.algorithms.size() == 1 && config.algorithms[0] == "all";
  if (all) config.algorithms = algorithm_names();
  sched::check_simulation_config(config);
  if (all) {
    // "all" means the algorithms that schedule these instances: bsp-a1..a4 refuse d > 1 (the refusal depends on
    // d and on tasks running on one unit, the same for every generated instance — the first one tells).
    const auto sample = sched::generate_instance(config.generator, sched::instance_seed(config.seed, 0));
    std::erase_if(config.algorithms,
                  [&](const std::string& name) { return !find_algorithm(name).refusal(sample).empty(); });
  }
  return config;
}

}  // namespace cosched::sim
