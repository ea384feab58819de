#pragma once
// The simulation study of Sec. 5.4 / Fig. 4: random instances from the synthetic generator, every requested
// algorithm on each, makespans normalised by L_min(d) and the algorithms' running times.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/generator.hpp"

namespace cosched::sched {

// Limits of a simulation run, far above the paper's study (150 tasks, 100 instances, 328,185 allocation vectors)
// but low enough that a typo cannot allocate gigabytes or run for days: tasks x allocation vectors is the work of
// one allocation phase (time evaluations), about a second at the limit.
inline constexpr std::size_t kMaxSimulationTasks = 100'000;
inline constexpr std::size_t kMaxSimulationInstances = 100'000;
inline constexpr std::size_t kMaxSimulationWork = std::size_t{1} << 30;

struct SimulationConfig {
  GeneratorConfig generator;
  std::size_t instances = 100;
  std::uint64_t seed = 1;
  std::vector<std::string> algorithms{"d-list-lpt", "t-list-lpt", "d-pack-ff", "t-pack-ff"};  // Fig. 4's four
  // Where the names are looked up: sched's own table, or a caller's extension of it (the simulation core's
  // sim::find_algorithm, which adds the planners that evaluate plans on its clocks).
  std::function<const Algorithm&(std::string_view)> find_algorithm = sched::find_algorithm;
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

// Throws UsageError for a config beyond the limits above (capacities as AllocationSpace checks them) or an
// unknown algorithm name.
void check_simulation_config(const SimulationConfig& config);

// Every schedule is validated (require_valid). Checks the config first (check_simulation_config).
[[nodiscard]] std::vector<SimulationRecord> run_simulation(const SimulationConfig& config,
                                                           const SimulationProgress& progress = {});

// One summary per algorithm, in the order given.
[[nodiscard]] std::vector<AlgorithmSummary> summarise(const std::vector<SimulationRecord>& records,
                                                      const std::vector<std::string>& algorithms);

// One CSV row per (instance, algorithm): instance, d, resources (';'-separated), tasks, profile ("mixed" when each
// task picks one), algorithm, makespan, lower_bound, ratio (full precision) and seconds.
[[nodiscard]] std::string simulation_csv(const SimulationConfig& config, const std::vector<SimulationRecord>& records);

// The run's parameters (resources, tasks, instances, seed, profile) and per algorithm its mean, median and max
// ratio and mean time: `cosched simulate --json`.
[[nodiscard]] nlohmann::json simulation_summary_json(const SimulationConfig& config,
                                                     const std::vector<AlgorithmSummary>& summaries);

// The same as a table for a person: a line with the parameters, then one row per algorithm.
[[nodiscard]] std::string format_simulation_summary(const SimulationConfig& config,
                                                    const std::vector<AlgorithmSummary>& summaries);

}  // namespace cosched::sched
