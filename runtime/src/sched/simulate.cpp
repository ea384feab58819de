#include "cosched/sched/simulate.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cosched/common/error.hpp"

#include "cosched/common/stats.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"

namespace cosched::sched {

void check_simulation_config(const SimulationConfig& config) {
  const auto count = [](const char* what, std::size_t value, std::size_t max) {
    if (value < 1 || value > max) throw UsageError(fmt::format("{} must be from 1 to {}, got {}", what, max, value));
  };
  count("the number of tasks", config.generator.tasks, kMaxSimulationTasks);
  count("the number of instances", config.instances, kMaxSimulationInstances);
  std::size_t vectors = 0;
  try {
    vectors = AllocationSpace(config.generator.capacities).size();
  } catch (const Error& e) {  // a capacity below 1, or a space too large to schedule
    throw UsageError(fmt::format("resource capacities: {}", e.what()));
  }
  if (config.generator.tasks > kMaxSimulationWork / vectors) {
    throw UsageError(fmt::format("{} tasks x {} allocation vectors is more than the {} time evaluations a simulated "
                                 "allocation phase may take: use fewer tasks or smaller capacities",
                                 config.generator.tasks, vectors, kMaxSimulationWork));
  }
  for (const auto& name : config.algorithms) (void)config.find_algorithm(name);
}

std::vector<SimulationRecord> run_simulation(const SimulationConfig& config, const SimulationProgress& progress) {
  check_simulation_config(config);
  std::vector<const Algorithm*> selected;
  for (const auto& name : config.algorithms) selected.push_back(&config.find_algorithm(name));
  std::vector<SimulationRecord> records;
  records.reserve(config.instances * selected.size());
  for (std::size_t k = 0; k < config.instances; ++k) {
    const Instance instance = generate_instance(config.generator, instance_seed(config.seed, k));
    const double bound = lower_bound(instance);
    for (const Algorithm* algorithm : selected) {
      const PlanResult result = plan(*algorithm, instance, bound);
      records.push_back({k, std::string(algorithm->name()), result.schedule.makespan, bound,
                         result.schedule.makespan / bound, result.seconds});
    }
    if (progress) progress(k + 1, config.instances);
  }
  return records;
}

std::vector<AlgorithmSummary> summarise(const std::vector<SimulationRecord>& records,
                                        const std::vector<std::string>& algorithms) {
  std::vector<AlgorithmSummary> summaries;
  for (const auto& name : algorithms) {
    AlgorithmSummary summary;
    summary.algorithm = name;
    std::vector<double> ratios;
    double seconds = 0.0;
    for (const auto& record : records) {
      if (record.algorithm != name) continue;
      ratios.push_back(record.ratio);
      seconds += record.seconds;
    }
    summary.runs = ratios.size();
    if (!ratios.empty()) {
      double total = 0.0;
      for (double ratio : ratios) total += ratio;
      const SampleSummary spread = summarize(ratios);
      summary.mean_ratio = total / static_cast<double>(ratios.size());
      summary.median_ratio = spread.median;
      summary.max_ratio = spread.max;
      summary.mean_seconds = seconds / static_cast<double>(ratios.size());
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

}  // namespace cosched::sched
