#include "cosched/sched/simulate.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

namespace {

std::string profile_text(const SimulationConfig& config) {
  return config.generator.profile ? profile_name(*config.generator.profile) : "mixed";
}

}  // namespace

std::string simulation_csv(const SimulationConfig& config, const std::vector<SimulationRecord>& records) {
  const std::vector<int>& resources = config.generator.capacities;
  const std::string profile = profile_text(config);
  std::string text = "instance,d,resources,tasks,profile,algorithm,makespan,lower_bound,ratio,seconds\n";
  for (const auto& r : records) {
    text += fmt::format("{},{},{},{},{},{},{:.17g},{:.17g},{:.17g},{:.9g}\n", r.instance, resources.size(),
                        fmt::join(resources, ";"), config.generator.tasks, profile, r.algorithm, r.makespan,
                        r.lower_bound, r.ratio, r.seconds);
  }
  return text;
}

nlohmann::json simulation_summary_json(const SimulationConfig& config, const std::vector<AlgorithmSummary>& summaries) {
  nlohmann::json root;
  root["resources"] = config.generator.capacities;
  root["tasks"] = config.generator.tasks;
  root["instances"] = config.instances;
  root["seed"] = config.seed;
  root["profile"] = profile_text(config);
  root["algorithms"] = nlohmann::json::object();
  for (const auto& s : summaries) {
    root["algorithms"][s.algorithm] = {{"mean_ratio", s.mean_ratio},
                                       {"median_ratio", s.median_ratio},
                                       {"max_ratio", s.max_ratio},
                                       {"mean_seconds", s.mean_seconds}};
  }
  return root;
}

std::string format_simulation_summary(const SimulationConfig& config, const std::vector<AlgorithmSummary>& summaries) {
  const std::vector<int>& resources = config.generator.capacities;
  std::string text = fmt::format("d = {} ({}), {} tasks, {} instances, seed {}\n", resources.size(),
                                 fmt::join(resources, ","), config.generator.tasks, config.instances, config.seed);
  text += fmt::format("{:<12} {:>11} {:>13} {:>10} {:>14}\n", "algorithm", "mean ratio", "median ratio", "max ratio",
                      "mean time (s)");
  for (const auto& s : summaries) {
    text += fmt::format("{:<12} {:>11.4f} {:>13.4f} {:>10.4f} {:>14.6f}\n", s.algorithm, s.mean_ratio,
                        s.median_ratio, s.max_ratio, s.mean_seconds);
  }
  return text;
}

}  // namespace cosched::sched
