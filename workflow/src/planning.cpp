// The offline scheduling pipelines (cosched/workflow/planning.hpp).
#include "cosched/workflow/planning.hpp"

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/online/bsp_batch.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sched/simulate.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/comparison.hpp"
#include "cosched/sim/simulation.hpp"

namespace cosched::workflow {

namespace {

// `--nodes N --output DIR`: the batch split over N identical nodes, one schedule per node and a manifest.
void run_cluster_plan(const PlanOptions& options, Reporter& reporter) {
  if (options.algorithm == "all") throw UsageError("--nodes needs a single --algorithm, not all");
  if (options.output == "-") throw UsageError("--nodes needs --output DIR: the plan is a folder of files");
  const sched::Algorithm& algorithm = sim::find_algorithm(options.algorithm);
  const auto overwrite = overwrite_if_forced(options.force);
  sched::check_plan_folder(options.output, overwrite);
  const auto instance = sched::load_instance(options.instance);
  const auto cluster = sched::plan_cluster(algorithm, instance, options.nodes);
  sched::write_cluster_plan(options.output, cluster, options.instance, overwrite);
  reporter.result({"cluster-plan", sched::format_cluster_plan(cluster) + options.output + "\n",
                   {{"plan_folder", options.output}}});
}

}  // namespace

void run_plan(const PlanOptions& options, Reporter& reporter) {
  if (options.nodes > 0) return run_cluster_plan(options, reporter);
  const bool compare = options.algorithm == "all";
  if (compare && options.output != "-") throw UsageError("--output needs a single --algorithm, not all");
  // Resolve the name and check the output before reading a possibly large instance: an existing output (even the
  // instance itself) is replaced only with --force.
  const sched::Algorithm* algorithm = compare ? nullptr : &sim::find_algorithm(options.algorithm);
  for (const std::string& name : options.skip) (void)sim::find_algorithm(name);  // UsageError naming the known ones
  const auto overwrite = overwrite_if_forced(options.force);
  check_output_path(options.output, overwrite, "schedule");
  const auto instance = sched::load_instance(options.instance);
  const double bound = sched::lower_bound(instance);
  // The LP bound only where it is affordable or asked for: on a large instance it would cost more than planning.
  const bool solve_lp = options.lp_bound || sched::lp_bound_affordable(instance);
  if (!solve_lp) {
    reporter.note(fmt::format("cosched: note: the LP bound on sum w_j C_j is not solved for {} tasks (more than {}; "
                              "--lp-bound solves it)",
                              instance.task_count(), sched::kLpBoundMaxTasks));
  }
  if (compare) {
    sim::report_comparison(reporter, instance, sched::comparison_bounds(instance, bound, solve_lp),
                           {options.limits, options.skip});
    return;
  }
  auto result = sched::plan(*algorithm, instance, bound, options.limits);
  if (solve_lp) result.schedule.lower_bound_weighted_completion = sched::weighted_completion_lower_bound(instance);
  write_text_file(options.output, sched::schedule_to_json(instance, result.schedule) + "\n", overwrite, "schedule");
}

void run_simulate(const SimulateOptions& options, Reporter& reporter) {
  sched::SimulationConfig config;
  config.generator.capacities = options.resources;
  config.generator.tasks = options.tasks;
  if (!options.profile.empty()) config.generator.profile = sched::parse_profile(options.profile);
  config.instances = options.instances;
  config.seed = options.seed;
  config.algorithms = options.algorithms;
  config = sim::with_registered_algorithms(std::move(config));
  const auto overwrite = overwrite_if_forced(options.force);
  if (!options.csv.empty()) check_output_path(options.csv, overwrite, "simulation CSV");
  const auto records = sched::run_simulation(config);
  const auto summaries = sched::summarise(records, config.algorithms);
  if (!options.csv.empty()) {
    write_text_file(options.csv, sched::simulation_csv(config, records), overwrite, "simulation CSV");
  }
  const nlohmann::json summary = sched::simulation_summary_json(config, summaries);
  reporter.result({"simulation-summary",
                   options.json ? summary.dump(2) + "\n" : sched::format_simulation_summary(config, summaries),
                   summary});
}

void run_bsp_batch(const BspBatchOptions& options) {
  const auto overwrite = overwrite_if_forced(options.force);
  check_output_path(options.output, overwrite, "instance");
  const auto instance = online::sample_bsp_batch(online::load_swf(options.trace),
                                                 {options.procs, options.tasks, options.seed}, options.trace);
  write_text_file(options.output, sched::instance_to_json(instance) + "\n", overwrite, "instance");
}

}  // namespace cosched::workflow
