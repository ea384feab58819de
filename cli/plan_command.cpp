// `cosched plan`: schedule one Instance JSON with one algorithm (Schedule JSON out) or compare all of them.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <memory>
#include <optional>
#include <string>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sim/plan.hpp"
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

// The ratio of a value to its lower bound; an instance without tasks has bounds of 0 and no meaningful ratio.
std::string ratio_cell(double value, std::optional<double> bound) {
  return bound && *bound > 0 ? fmt::format("{:.4f}", value / *bound) : "n/a";
}

// The lower bounds of an instance, the same on every row of the comparison.
struct Bounds {
  double makespan = 0.0;                      // L_min(d)
  std::optional<double> two_shelf;            // seed 001's makespan reference (one resource only)
  std::optional<double> weighted;             // the LP on sum w_j C_j
  std::optional<double> weighted_paper_cost;  // the same LP with the paper's objective coefficients
  std::optional<double> weighted_printed;     // the LP on the paper's printed intervals: a diagnostic, NOT a bound
};

std::string bound_cell(std::optional<double> bound) { return bound ? fmt::format("{:.6g}", *bound) : "n/a"; }
// "-": the printed LP is infeasible (the tasks cannot all end by 2 C*max), which is not a missing bound.
std::string printed_cell(std::optional<double> value) { return value ? fmt::format("{:.6g}", *value) : "-"; }

// With a bandwidth model (`cosched instance --node`), a column: the makespan the contention-aware clock predicts
// for the schedule launched with its own policy (list or pack) — what `cosched launch` will predict. Then seed 001's
// columns: sum w_j C_j, its LP lower bound (the same on every row, like L_min(d)) and their ratio, and two more
// bounds for the paper's comparison (docs/bicriteria.md): MRT's two-shelf makespan bound and the LP with the
// paper's coefficients; last, LP_printed, the paper's LP on its printed intervals only — not a valid bound, shown
// to measure how far the paper's ratios could have been against it.
void print_comparison(const cosched::sched::Instance& instance, const Bounds& bounds,
                      const cosched::sched::SearchLimits& limits) {
  const bool contention = !instance.bandwidth().empty();
  fmt::print("{:<16} {:>14} {:>14} {:>8} {:>12}{} {:>14} {:>14} {:>8} {:>14} {:>14} {:>14}\n", "algorithm",
             "makespan", "L_min(d)", "ratio", "time (s)",
             contention ? fmt::format(" {:>14}", "contention") : std::string(), "sum_w_C", "LP_bound", "w_ratio",
             "two_shelf_LB", "LP_paper", "LP_printed");
  for (const cosched::sched::Algorithm* algorithm : cosched::sim::algorithms()) {
    // An algorithm that does not apply to this instance (bsp-a1..a4 on two resources) gets a note, not a row.
    if (const std::string reason = algorithm->refusal(instance); !reason.empty()) {
      fmt::print("{:<12} skipped: {}\n", algorithm->name(), reason);
      continue;
    }
    const auto result = cosched::sched::plan(*algorithm, instance, bounds.makespan, limits);
    const double weighted = cosched::sched::weighted_completion_sum(instance, result.schedule.tasks);
    const std::string ratio = ratio_cell(result.schedule.makespan, bounds.makespan);
    std::string predicted;
    if (contention) {
      const auto plan = cosched::sim::plan_from_schedule(instance, result.schedule);
      predicted = fmt::format(" {:>14.6g}", cosched::sim::predict_contention(plan, "auto").observed_makespan);
    }
    fmt::print("{:<16} {:>14.6g} {:>14.6g} {:>8} {:>12.6f}{} {:>14.6g} {:>14} {:>8} {:>14} {:>14} {:>14}\n",
               algorithm->name(), result.schedule.makespan, bounds.makespan, ratio, result.seconds, predicted,
               weighted, bound_cell(bounds.weighted), ratio_cell(weighted, bounds.weighted),
               bound_cell(bounds.two_shelf), bound_cell(bounds.weighted_paper_cost),
               printed_cell(bounds.weighted_printed));
  }
}

// The bounds of the comparison; the three LPs only when `solve_lp` (else their cells read n/a and -).
Bounds comparison_bounds(const cosched::sched::Instance& instance, double makespan_bound, bool solve_lp) {
  using cosched::sched::LpCompletionCost;
  using cosched::sched::LpIntervals;
  using cosched::sched::weighted_completion_lower_bound;
  Bounds bounds;
  bounds.makespan = makespan_bound;
  bounds.two_shelf = cosched::sched::two_shelf_lower_bound(instance);
  if (solve_lp) {
    bounds.weighted = weighted_completion_lower_bound(instance);
    bounds.weighted_paper_cost = weighted_completion_lower_bound(instance, LpCompletionCost::interval_start);
    bounds.weighted_printed =
        weighted_completion_lower_bound(instance, LpCompletionCost::interval_start, LpIntervals::paper_printed);
  }
  return bounds;
}

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
    print_comparison(instance, comparison_bounds(instance, bound, solve_lp), options.limits);
    return;
  }
  auto result = cosched::sched::plan(*algorithm, instance, bound, options.limits);
  if (solve_lp) {
    result.schedule.lower_bound_weighted_completion = cosched::sched::weighted_completion_lower_bound(instance);
  }
  cosched::write_text_file(options.output, cosched::sched::schedule_to_json(instance, result.schedule) + "\n",
                           overwrite, "schedule");
}

const cosched::cli::CommandRegistration registration{"plan", [](CLI::App& app) {
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
  sub->add_option("-o,--output", options->output, "Write the Schedule JSON here (default -: stdout)");
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
