// `cosched simulate`: the synthetic-workload study of Sec. 5.4 / Fig. 4 (ratios to L_min(d), scheduling times).
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/simulate.hpp"
#include "cosched/workflow/planning.hpp"
#include "reporting.hpp"

namespace {

struct SimulateFlags {
  cosched::workflow::SimulateOptions options;
  std::string progress = "console";
};

const cosched::cli::CommandRegistration simulate_registration{"simulate", [](CLI::App& app) {
  auto* sub = app.add_subcommand("simulate", "Synthetic-workload study of Sec. 5.4 / Fig. 4 (ratios to L_min(d))");
  auto flags = std::make_shared<SimulateFlags>();
  cosched::workflow::SimulateOptions* options = &flags->options;
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
      ->check(cosched::app::seed_value())
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
  cosched::cli::add_progress_option(*sub, flags->progress);
  sub->callback([flags] {
    const auto reporter =
        cosched::cli::command_reporter(flags->progress, {nullptr, stderr, stdout}, flags->options.csv == "-");
    cosched::workflow::run_simulate(flags->options, *reporter);
  });
}};

}  // namespace
