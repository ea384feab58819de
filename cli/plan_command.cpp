// `cosched plan`: schedule one Instance JSON with one algorithm (Schedule JSON out) or compare all of them.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/launcher/plan.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
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
};

// With a bandwidth model (`cosched instance --node`), a last column: the makespan the contention-aware clock
// predicts for the schedule launched with its own policy (list or pack) — what `cosched launch` will predict.
void print_comparison(const cosched::sched::Instance& instance, double bound) {
  const bool contention = !instance.bandwidth().empty();
  fmt::print("{:<12} {:>14} {:>14} {:>8} {:>12}{}\n", "algorithm", "makespan", "L_min(d)", "ratio", "time (s)",
             contention ? fmt::format(" {:>14}", "contention") : std::string());
  for (const auto& algorithm : cosched::sched::algorithms()) {
    const auto result = cosched::sched::plan(*algorithm, instance, bound);
    // An instance without tasks has L_min(d) = 0 and no meaningful ratio.
    const std::string ratio = bound > 0 ? fmt::format("{:.4f}", result.schedule.makespan / bound) : "n/a";
    std::string predicted;
    if (contention) {
      const auto plan = cosched::launcher::plan_from_schedule(instance, result.schedule);
      predicted = fmt::format(" {:>14.6g}", cosched::launcher::predict_contention(plan, "auto").observed_makespan);
    }
    fmt::print("{:<12} {:>14.6g} {:>14.6g} {:>8} {:>12.6f}{}\n", algorithm->name(), result.schedule.makespan, bound,
               ratio, result.seconds, predicted);
  }
}

// `--nodes N --output DIR`: the batch split over N identical nodes, one schedule per node and a manifest.
void run_cluster_plan(const PlanOptions& options) {
  if (options.algorithm == "all") throw cosched::UsageError("--nodes needs a single --algorithm, not all");
  if (options.output == "-") throw cosched::UsageError("--nodes needs --output DIR: the plan is a folder of files");
  const cosched::sched::Algorithm& algorithm = cosched::sched::find_algorithm(options.algorithm);
  const auto overwrite = options.force ? cosched::Overwrite::replace : cosched::Overwrite::refuse;
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
  const cosched::sched::Algorithm* algorithm = compare ? nullptr : &cosched::sched::find_algorithm(options.algorithm);
  const auto overwrite = options.force ? cosched::Overwrite::replace : cosched::Overwrite::refuse;
  cosched::check_output_path(options.output, overwrite, "schedule");
  const auto instance = cosched::sched::load_instance(options.instance);
  const double bound = cosched::sched::lower_bound(instance);
  if (compare) {
    print_comparison(instance, bound);
    return;
  }
  const auto result = cosched::sched::plan(*algorithm, instance, bound);
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
                              fmt::join(cosched::sched::algorithm_names(), ", ")))
      ->required();
  sub->add_option("-o,--output", options->output, "Write the Schedule JSON here (default -: stdout)");
  sub->add_flag("--force", options->force, "Replace an existing --output file (or plan folder)");
  sub->add_option("--nodes", options->nodes,
                  "Split the batch over N identical nodes: --output names a folder with one schedule per node and "
                  "a manifest (docs/cluster.md)")
      ->check(CLI::Range(std::size_t{1}, cosched::sched::kMaxClusterNodes));
  sub->callback([options] { run_plan(*options); });
}};

}  // namespace
