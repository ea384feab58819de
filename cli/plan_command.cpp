// `cosched plan`: schedule one Instance JSON with one algorithm (Schedule JSON out) or compare all of them.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/sched/bicriteria.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/workflow/planning.hpp"
#include "reporting.hpp"

namespace {

struct PlanFlags {
  cosched::workflow::PlanOptions options;
  std::string progress = "console";
};

const cosched::cli::CommandRegistration plan_registration{"plan", [](CLI::App& app) {
  auto* sub = app.add_subcommand("plan", "Schedule an instance (Sun et al., RR-9140) and print Schedule JSON");
  auto flags = std::make_shared<PlanFlags>();
  cosched::workflow::PlanOptions* options = &flags->options;
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
      ->check(cosched::app::seed_value())
      ->capture_default_str();
  sub->add_option("--skip", options->skip,
                  "--algorithm all: leave these algorithms out (comma-separated), e.g. the slow ones on a large "
                  "instance (each is announced before it plans from 10,000 tasks)")
      ->delimiter(',');
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
  cosched::cli::add_progress_option(*sub, flags->progress);
  sub->callback([flags, sub] {
    // A budget or a seed for an algorithm that does not search would be ignored (`all` compares model-search too).
    const std::string& algorithm = flags->options.algorithm;
    cosched::app::refuse_unless_applies(
        *sub, {"--budget-ms", "--seed"}, algorithm == "all" || cosched::sim::find_algorithm(algorithm).searches(),
        fmt::format("only for an algorithm that searches (model-search); {} does not search", algorithm));
    cosched::app::refuse_unless_applies(*sub, {"--skip"}, algorithm == "all",
                                        "only with --algorithm all (it leaves algorithms out of the comparison)");
    const auto reporter = cosched::cli::command_reporter(flags->progress, {nullptr, stderr, stdout},
                                                         flags->options.output == "-" && flags->options.nodes == 0 &&
                                                             flags->options.algorithm != "all");
    cosched::workflow::run_plan(flags->options, *reporter);
  });
}};

}  // namespace
