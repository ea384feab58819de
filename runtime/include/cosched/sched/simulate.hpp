#pragma once
// The simulation study of Sec. 5.4 / Fig. 4: random instances from the synthetic generator, every requested
// algorithm on each, makespans normalised by L_min(d) and the algorithms' running times.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cosched/sched/generator.hpp"

namespace cosched::sched {

struct SimulationConfig {
  GeneratorConfig generator;
  std::size_t instances = 100;
  std::uint64_t seed = 1;
  std::vector<std::string> algorithms{"d-list-lpt", "t-list-lpt", "d-pack-ff", "t-pack-ff"};  // Fig. 4's four
};

struct SimulationRecord {
  std::size_t instance = 0;
  std::string algorithm;
  double makespan = 0.0;
  double lower_bound = 0.0;  // L_min(d)
  double ratio = 0.0;        // makespan / L_min(d)
  double seconds = 0.0;      // the algorithm's running time (L_min(d) itself is not part of it)
};

struct AlgorithmSummary {
  std::string algorithm;
  std::size_t runs = 0;
  double mean_ratio = 0.0;
  double median_ratio = 0.0;
  double max_ratio = 0.0;
  double mean_seconds = 0.0;
};

// Called after each instance with (instances done, instances total).
using SimulationProgress = std::function<void(std::size_t, std::size_t)>;

// Every schedule is validated (require_valid). Throws UsageError for an unknown algorithm name.
[[nodiscard]] std::vector<SimulationRecord> run_simulation(const SimulationConfig& config,
                                                           const SimulationProgress& progress = {});

// One summary per algorithm, in the order given.
[[nodiscard]] std::vector<AlgorithmSummary> summarise(const std::vector<SimulationRecord>& records,
                                                      const std::vector<std::string>& algorithms);

}  // namespace cosched::sched
