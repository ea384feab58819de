// `cosched simulate`: the synthetic-workload study of Sec. 5.4 / Fig. 4 (ratios to L_min(d), scheduling times).
#include <fmt/core.h>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/simulate.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/app/run_main.hpp"

namespace {

struct SimulateOptions {
  std::vector<int> resources{64, 32, 16, 8};
  std::size_t tasks = 150;
  std::size_t instances = 100;
  std::uint64_t seed = 1;
  std::vector<std::string> algorithms{"d-list-lpt", "t-list-lpt", "d-pack-ff", "t-pack-ff"};
  std::string profile;  // empty: mixed
  bool json = false;
  std::string csv;
  bool force = false;
  [[nodiscard]] cosched::Overwrite overwrite() const {
    return cosched::overwrite_if_forced(force);
  }
};

cosched::sched::SimulationConfig make_config(const SimulateOptions& options) {
  cosched::sched::SimulationConfig config;
  config.generator.capacities = options.resources;
  config.generator.tasks = options.tasks;
  if (!options.profile.empty()) config.generator.profile = cosched::sched::parse_profile(options.profile);
  config.instances = options.instances;
  config.seed = options.seed;
  config.algorithms = options.algorithms;
  config.find_algorithm = cosched::sim::find_algorithm;  // every registered algorithm, the sim core's planners too
  const bool all = config.algorithms.size() == 1 && config.algorithms[0] == "all";
  if (all) config.algorithms = cosched::sim::algorithm_names();
  cosched::sched::check_simulation_config(config);
  if (all) {
    // "all" means the algorithms that schedule these instances: bsp-a1..a4 refuse d > 1 (the refusal depends on
    // d and on tasks running on one unit, the same for every generated instance — the first one tells).
    const auto sample =
        cosched::sched::generate_instance(config.generator, cosched::sched::instance_seed(config.seed, 0));
    std::erase_if(config.algorithms, [&](const std::string& name) {
      return !cosched::sim::find_algorithm(name).refusal(sample).empty();
    });
  }
  return config;
}

std::string csv_text(const SimulateOptions& options, const std::vector<cosched::sched::SimulationRecord>& records) {
  const std::string profile = options.profile.empty() ? "mixed" : options.profile;
  std::string text = "instance,d,resources,tasks,profile,algorithm,makespan,lower_bound,ratio,seconds\n";
  for (const auto& r : records) {
    text += fmt::format("{},{},{},{},{},{},{:.17g},{:.17g},{:.17g},{:.9g}\n", r.instance, options.resources.size(),
                        fmt::join(options.resources, ";"), options.tasks, profile, r.algorithm, r.makespan,
                        r.lower_bound, r.ratio, r.seconds);
  }
  return text;
}

void run_simulate(const SimulateOptions& options) {
  const auto config = make_config(options);
  if (!options.csv.empty()) cosched::check_output_path(options.csv, options.overwrite(), "simulation CSV");
  const auto records = cosched::sched::run_simulation(config);
  const auto summaries = cosched::sched::summarise(records, config.algorithms);
  if (!options.csv.empty()) {
    cosched::write_text_file(options.csv, csv_text(options, records), options.overwrite(), "simulation CSV");
  }
  if (options.json) {
    nlohmann::json root;
    root["resources"] = options.resources;
    root["tasks"] = options.tasks;
    root["instances"] = options.instances;
    root["seed"] = options.seed;
    root["profile"] = options.profile.empty() ? "mixed" : options.profile;
    root["algorithms"] = nlohmann::json::object();
    for (const auto& s : summaries) {
      root["algorithms"][s.algorithm] = {{"mean_ratio", s.mean_ratio},
                                         {"median_ratio", s.median_ratio},
                                         {"max_ratio", s.max_ratio},
                                         {"mean_seconds", s.mean_seconds}};
    }
    fmt::print("{}\n", root.dump(2));
    return;
  }
  fmt::print("d = {} ({}), {} tasks, {} instances, seed {}\n", options.resources.size(),
             fmt::join(options.resources, ","), options.tasks, options.instances, options.seed);
  fmt::print("{:<12} {:>11} {:>13} {:>10} {:>14}\n", "algorithm", "mean ratio", "median ratio", "max ratio",
             "mean time (s)");
  for (const auto& s : summaries) {
    fmt::print("{:<12} {:>11.4f} {:>13.4f} {:>10.4f} {:>14.6f}\n", s.algorithm, s.mean_ratio, s.median_ratio,
               s.max_ratio, s.mean_seconds);
  }
}

const cosched::cli::CommandRegistration registration{"simulate", [](CLI::App& app) {
  auto* sub = app.add_subcommand("simulate", "Synthetic-workload study of Sec. 5.4 / Fig. 4 (ratios to L_min(d))");
  auto options = std::make_shared<SimulateOptions>();
  namespace sched = cosched::sched;
  sub->add_option("--resources", options->resources,
                  "Capacities, comma-separated; d = their count (each 1.." + std::to_string(sched::kMaxCapacity) +
                      ", product of capacity+1 at most 2^24)")
      ->delimiter(',')
      ->capture_default_str()
      ->check(cosched::app::finite_range(1, sched::kMaxCapacity));
  sub->add_option("--tasks", options->tasks, "Tasks per instance")
      ->capture_default_str()
      ->check(cosched::app::finite_range(1, static_cast<double>(sched::kMaxSimulationTasks)));
  sub->add_option("--instances", options->instances, "Random instances")
      ->capture_default_str()
      ->check(cosched::app::finite_range(1, static_cast<double>(sched::kMaxSimulationInstances)));
  sub->add_option("--seed", options->seed, "Seed (runs are deterministic)")
      ->check(CLI::NonNegativeNumber)  // CLI11 would wrap -1 around to 2^64-1
      ->capture_default_str();
  sub->add_option("--algorithms", options->algorithms, "Comma-separated algorithm names, or all")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--profile", options->profile,
                  "Use only this profile: amdahl-sum, amdahl-product, amdahl-max, power-sum, power-product, "
                  "power-max (default: each task picks one of the six)");
  sub->add_flag("--json", options->json, "Print per-algorithm summaries as JSON");
  sub->add_option("--csv", options->csv, "Write one row per (instance, algorithm) to this file (- : stdout)");
  sub->add_flag("--force", options->force, "Replace an existing --csv file");
  sub->callback([options] { run_simulate(*options); });
}};

}  // namespace
