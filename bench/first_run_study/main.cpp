// first_run_study: a first run with nothing known on simulated nodes, with and without re-planning as the launch
// learns (docs/knowledge.md).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "cosched/app/run_main.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/workflow/reporters.hpp"
#include "first_run_study/first_run.hpp"

int main(int argc, char** argv) {
  CLI::App app{"first_run_study: a first run with nothing known, naive and re-planned as it learns, against "
               "ground-truth programs on simulated nodes"};
  cosched::bench::FirstRunOptions options;
  std::string csv;
  bool force = false;
  bool notes = false;
  app.add_option("--nodes", options.nodes, "node-16, xeon-max-56, knl-64 (default: all)")->delimiter(',');
  app.add_option("--sizes", options.sizes, "batch sizes, tasks over the node's cores (default: 0.5,1,2,4)")
      ->delimiter(',');
  app.add_option("--seeds", options.seeds, "batches per node and size")->check(CLI::Range(1, 1000));
  app.add_option("--seed", options.seed, "seed of the programs, the batches and the noise");
  app.add_option("--noise", options.noise, "one run's noise, sd of ln t")->check(cosched::app::finite_range(0, 1));
  app.add_option("--oracle-evaluations", options.oracle_evaluations, "model-search's candidates for the oracle's plan")
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--replan-evaluations", options.replan_evaluations,
                 "stop each re-plan's search at N candidates instead of its wall-time budget (0: as cosched run; "
                 "N: the same re-plans on any machine)")
      ->check(CLI::Range(0, 1'000'000));
  app.add_option("--csv", csv, "write PREFIX-first-run.csv (one row per batch)");
  app.add_flag("--force", force, "replace an existing CSV file");
  app.add_flag("--notes", notes, "show on stderr what each launch's replanner learnt and re-planned");
  return cosched::app::run_main(app, argc, argv, "first_run_study", [&] {
    const auto overwrite = cosched::overwrite_if_forced(force);
    if (!csv.empty()) cosched::check_output_path(csv + "-first-run.csv", overwrite, "--csv");
    const auto progress = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
    cosched::workflow::ConsoleReporter console({nullptr, stderr, nullptr}, false);
    const auto outcomes = cosched::bench::run_first_runs(options, progress, notes ? &console : nullptr);
    fmt::print("first runs with nothing known: {} batch(es) per node and size, run noise {:.0f} %, seed {}, re-plans "
               "{}\n",
               options.seeds, 100 * options.noise, options.seed,
               options.replan_evaluations == 0 ? std::string("within the replanner's budget")
                                               : fmt::format("at {} candidates", options.replan_evaluations));
    fmt::print("{}\n", cosched::bench::format_first_run_table(outcomes));
    fmt::print("where the re-planned launch started the tasks after the first wave, against the naive launch "
               "(mean start shift and duration):\n{}",
               cosched::bench::format_start_shift_table(outcomes));
    if (!csv.empty()) {
      cosched::write_text_file(csv + "-first-run.csv", cosched::bench::first_run_csv(outcomes), overwrite, "--csv");
    }
    cosched::flush_standard_output();
  });
}
