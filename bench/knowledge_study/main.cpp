// knowledge_study: the simulated study of what knowing a batch costs and what it buys (docs/knowledge.md).
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <string>

#include "cosched/app/run_main.hpp"
#include "cosched/common/text_file.hpp"
#include "knowledge_study/recurring.hpp"
#include "knowledge_study/study.hpp"

int main(int argc, char** argv) {
  CLI::App app{"knowledge_study: profiling strategies against ground-truth programs on simulated nodes"};
  cosched::bench::StudyOptions options;
  std::string csv;
  bool force = false;
  bool quick = false;
  bool recurring = false;
  cosched::bench::RecurringOptions recurring_options;
  app.add_option("--nodes", options.nodes, "node-16, knl-64, xeon-max-56 (default: all)")->delimiter(',');
  app.add_option("--batches", options.batches, "batches per node")->check(CLI::Range(1, 1000));
  app.add_option("--seed", options.seed, "seed of the programs and the noise");
  app.add_option("--noise", options.noise, "one run's noise, sd of ln t")->check(cosched::app::finite_range(0, 1));
  app.add_option("--launch-noise", options.launch_noise, "the node-wide factor of a run, sd of ln")
      ->check(cosched::app::finite_range(0, 1));
  app.add_option("--budget-share", options.budget_share, "adaptive's profiling budget / predicted makespan")
      ->check(cosched::app::finite_positive(10));
  app.add_option("--planner-evaluations", options.planner_evaluations, "model-search's candidates per plan")
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--planner-seeds", options.planner_seeds, "model-search seeds per plan (the best predicted kept)")
      ->check(CLI::Range(1, 100));
  app.add_option_function<double>(
         "--cautious", [&options](double z) { options.plan_times = cosched::knowledge::cautious_times(z); },
         "the strategies table: plan on the fitted times z sd above their medians")
      ->check(cosched::app::finite_range(0, 5));
  app.add_option("--profiling-work", options.profiling_work, "the amounts of work a task may be profiled at")
      ->delimiter(',');
  app.add_option("--planner-budget-ms", options.planner_budget_ms, "model-search's budget per plan")
      ->check(cosched::app::finite_positive(600000));
  app.add_option("--csv", csv, "write PREFIX-strategies.csv and PREFIX-algorithms.csv (for knowledge_plot.py)");
  app.add_flag("--force", force, "replace existing CSV files");
  app.add_flag("--quick", quick, "2 batches per node");
  app.add_flag("--recurring", recurring,
               "instead: a node owner's recurring batches as cosched run learns them (--owners x --batches; "
               "--csv writes PREFIX-recurring.csv)");
  app.add_option("--owners", recurring_options.sequences, "--recurring: independent owners (pools) per node")
      ->check(CLI::Range(1, 1000));
  app.add_option("--rows", recurring_options.rows,
                 fmt::format("--recurring: the rows to run (default: the five of docs/knowledge.md; also {})",
                             fmt::join(cosched::bench::recurring_extra_rows(), ", ")))
      ->delimiter(',');
  app.add_flag("--diagnose", recurring_options.diagnose,
               "--recurring: where each plan's loss and profiling went (--csv writes PREFIX-diagnosis.csv)");
  return cosched::app::run_main(app, argc, argv, "knowledge_study", [&] {
    if (quick) options.batches = 2;
    const auto overwrite = cosched::overwrite_if_forced(force);
    const auto progress = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
    if (recurring) {
      recurring_options.batches = options.batches;
      if (!csv.empty()) cosched::check_output_path(csv + "-recurring.csv", overwrite, "--csv");
      const auto outcomes = cosched::bench::run_recurring(options, recurring_options, progress);
      fmt::print("recurring batches: {} owner(s) x {} batch(es) per node, run noise {:.0f} %, launch noise {:.0f} %, "
                 "auto budget {:.0f} %, seed {}\n",
                 recurring_options.sequences, recurring_options.batches, 100 * options.noise,
                 100 * options.launch_noise, 100 * options.budget_share, options.seed);
      fmt::print("{}", cosched::bench::format_recurring_table(outcomes));
      if (!csv.empty()) {
        cosched::write_text_file(csv + "-recurring.csv", cosched::bench::recurring_csv(outcomes), overwrite, "--csv");
        if (recurring_options.diagnose) {
          cosched::write_text_file(csv + "-diagnosis.csv", cosched::bench::recurring_diagnosis_csv(outcomes), overwrite,
                                   "--csv");
        }
      }
      cosched::flush_standard_output();
      return;
    }
    if (!csv.empty()) {
      cosched::check_output_path(csv + "-strategies.csv", overwrite, "--csv");
      cosched::check_output_path(csv + "-algorithms.csv", overwrite, "--csv");
    }
    const auto results = cosched::bench::run_study(options, progress);
    fmt::print("profiling strategies: {} batch(es) per node, run noise {:.0f} %, launch noise {:.0f} %, seed {}\n",
               options.batches, 100 * options.noise, 100 * options.launch_noise, options.seed);
    fmt::print("{}\n", cosched::bench::format_strategy_table(results.strategies));
    fmt::print("the plan of each algorithm with the true times (oracle knowledge):\n{}",
               cosched::bench::format_algorithm_table(results.algorithms));
    if (!csv.empty()) {
      cosched::write_text_file(csv + "-strategies.csv", cosched::bench::strategy_csv(results.strategies), overwrite,
                               "--csv");
      cosched::write_text_file(csv + "-algorithms.csv", cosched::bench::algorithm_csv(results.algorithms), overwrite,
                               "--csv");
    }
    cosched::flush_standard_output();
  });
}
