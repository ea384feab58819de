// `cosched simulate`: the synthetic-workload study of Sec. 5.4 / Fig. 4 (ratios to L_min(d), scheduling times).
#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/simulate.hpp"
#include "cosched/sim/simulation.hpp"
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
  return cosched::sim::with_registered_algorithms(std::move(config));
}

void run_simulate(const SimulateOptions& options) {
  const auto config = make_config(options);
  if (!options.csv.empty()) cosched::check_output_path(options.csv, options.overwrite(), "simulation CSV");
  const auto records = cosched::sched::run_simulation(config);
  const auto summaries = cosched::sched::summarise(records, config.algorithms);
  if (!options.csv.empty()) {
    cosched::write_text_file(options.csv, cosched::sched::simulation_csv(config, records), options.overwrite(),
                             "simulation CSV");
  }
  if (options.json) {
    fmt::print("{}\n", cosched::sched::simulation_summary_json(config, summaries).dump(2));
    return;
  }
  fmt::print("{}", cosched::sched::format_simulation_summary(config, summaries));
}

const cosched::cli::CommandRegistration simulate_registration{"simulate", [](CLI::App& app) {
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
