// `cosched plan`: schedule one Instance JSON with one algorithm (Schedule JSON out) or compare all of them.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/comparison.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/io.hpp"

namespace {

struct PlanOptions {
  std::string instance;
  std::string algorithm;
  std::string output = "-";
  bool force = false;
  std::size_t nodes = 0;  // 0: one node, a Schedule JSON; N: a cluster plan folder (docs/cluster.md)
  bool lp_bound = false;  // solve the LP bound on sum w_j C_j beyond sched::kLpBoundMaxTasks tasks too
  cosched::sched::SearchLimits limits;  // for the algorithms that search (model-search); the others ignore it
};

// `--nodes N --output DIR`: the batch split over N identical nodes, one schedule per node and a manifest.
void run_cluster_plan(const PlanOptions& options) {
  if (options.algorithm == "all") throw cosched::UsageError("--nodes needs a single --algorithm, not all");
  if (options.output == "-") throw cosched::UsageError("--nodes needs --output DIR: the plan is a folder of files");
  const cosched::sched::Algorithm& algorithm = cosched::sim::find_algorithm(options.algorithm);
  const auto overwrite = cosched::overwrite_if_forced(options.force);
  cosched::sched::check_plan_folder(options.output, overwrite);
  const auto instance = cosched::sched::load_instance(options.instance);
  const auto cluster = cosched::sched::plan_cluster(algorithm, instance, options.nodes);
  cosched::sched::write_cluster_plan(options.output, cluster, options.instance, overwrite);
  fmt::print("{}", cosched::sched::format_cluster_plan(cluster));
  fmt::print("{}\n", options.output);
}

void run_plan(const PlanOptions& options) {
  if (options.nodes > 0) {
    run_cluster_plan(options);
    return;
  }
  const bool compare = options.algorithm == "all";
  if (compare && options.output != "-") throw cosched::UsageError("--output needs a single --algorithm, not all");
  // Resolve the name and check the output before reading a possibly large instance: an existing output (even the
  // instance itself) is replaced only with --force.
  const cosched::sched::Algorithm* algorithm = compare ? nullptr : &cosched::sim::find_algorithm(options.algorithm);
  const auto overwrite = cosched::overwrite_if_forced(options.force);
  cosched::check_output_path(options.output, overwrite, "schedule");
  const auto instance = cosched::sched::load_instance(options.instance);
  const double bound = cosched::sched::lower_bound(instance);
  // The LP bound only where it is affordable or asked for: on a large instance it would cost more than planning.
  const bool solve_lp = options.lp_bound || cosched::sched::lp_bound_affordable(instance);
  if (!solve_lp) {
    fmt::print(stderr, "cosched: note: the LP bound on sum w_j C_j is not solved for {} tasks (more than {}; "
                       "--lp-bound solves it)\n", instance.task_count(), cosched::sched::kLpBoundMaxTasks);
  }
  if (compare) {
    cosched::sim::print_comparison(stdout, instance, cosched::sched::comparison_bounds(instance, bound, solve_lp),
                                   options.limits);
    return;
  }
  auto result = cosched::sched::plan(*algorithm, instance, bound, options.limits);
  if (solve_lp) {
    result.schedule.lower_bound_weighted_completion = cosched::sched::weighted_completion_lower_bound(instance);
  }
  cosched::write_text_file(options.output, cosched::sched::schedule_to_json(instance, result.schedule) + "\n",
                           overwrite, "schedule");
}

const cosched::cli::CommandRegistration plan_registration{"plan", [](CLI::App& app) {
  auto* sub = app.add_subcommand("plan", "Schedule an instance (Sun et al., RR-9140) and print Schedule JSON");
  auto options = std::make_shared<PlanOptions>();
  sub->add_option("--instance", options->instance, "Instance JSON file (docs/formats.md)")->required();
  sub->add_option("--algorithm", options->algorithm,
                  fmt::format("{}, or all (comparison table; with a bandwidth model it adds the contention-aware "
                              "prediction)",
                              fmt::join(cosched::sim::algorithm_names(), ", ")))
      ->required();
  sub->add_option("--budget-ms", options->limits.budget_ms,
                  "Wall time an algorithm that searches (model-search) may take, in ms, its starting plans included")
      ->capture_default_str()
      ->check(cosched::app::finite_positive(cosched::sched::kMaxSearchBudgetMs));
  sub->add_option("--seed", options->limits.seed, "Seed of a searching algorithm's random choices")
      ->capture_default_str();
  sub->add_option("-o,--output", options->output,
                  "Write the Schedule JSON here (default -: stdout); it carries the instance's bandwidth model and "
                  "each task's traffic, if the instance has them");
  sub->add_flag("--force", options->force, "Replace an existing --output file (or plan folder)");
  sub->add_option("--nodes", options->nodes,
                  "Split the batch over N identical nodes: --output names a folder with one schedule per node and "
                  "a manifest (docs/cluster.md)")
      ->check(CLI::Range(std::size_t{1}, cosched::sched::kMaxClusterNodes));
  sub->add_flag("--lp-bound", options->lp_bound,
                fmt::format("Solve the LP lower bound on sum w_j C_j even for more than {} tasks (CLP: seconds to "
                            "minutes there; below, it is always solved)",
                            cosched::sched::kLpBoundMaxTasks));
  sub->callback([options] { run_plan(*options); });
}};

}  // namespace
