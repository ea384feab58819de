// `cosched run BATCH`: a user's own batch, known as cheaply as its plan allows, planned, predicted with an interval,
// run, journaled, resumable and learnt from (docs/launcher.md, "Your own batch: cosched run"). The flags fill the library's
// RunBatchOptions; the pipeline is cosched::workflow::run_batch (workflow/src/run_batch.cpp).
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/knowledge/strategy.hpp"
#include "cosched/platform/command_placement.hpp"
#include "cosched/workflow/run_batch.hpp"
#include "launch_options.hpp"
#include "reporting.hpp"

namespace {

const cosched::cli::CommandRegistration run_registration{"run", [](CLI::App& app) {
  auto* sub = app.add_subcommand("run", "Your own batch: known cheaply, planned, predicted and run, journaled, learnt from");
  auto flags = std::make_shared<cosched::workflow::RunBatchOptions>();
  auto progress = std::make_shared<std::string>("console");
  sub->add_option("batch", flags->batch, "Workload TOML or JSON of kernels and commands (docs/formats.md)")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--output", flags->output,
                  "The run's folder (default: ./cosched-run-<batch name>, or the next of -2, -3 ... after a finished "
                  "run there)");
  sub->add_option("--algorithm", flags->algorithm, "The planner (cosched plan --help lists them)")
      ->capture_default_str();
  sub->add_flag("--dry-run", flags->dry_run, "Stop after the plan: the prediction and the predicted run, nothing run");
  auto* resume = sub->add_flag("--resume", flags->resume,
                               "Continue the run in --output: only its unfinished tasks run, nothing is planned again");
  sub->add_flag("--force", flags->force, "Start over in an --output folder that holds a run")->excludes(resume);
  sub->add_option("--cache", flags->cache, "The profile cache (default: $XDG_CACHE_HOME/cosched, ~/.cache/cosched)");
  sub->add_flag("--reprofile", flags->reprofile,
                "Set aside what is known of every task kind: measured again within the budget, else learnt from this run")
      ->excludes(resume);
  sub->add_option("--profile-strategy", flags->profile_strategy,
                  "Which runs are worth measuring before the plan (docs/knowledge.md)")
      ->check(CLI::IsMember(cosched::knowledge::measurement_strategy_names()))
      ->capture_default_str()
      ->excludes(resume);
  sub->add_option("--profile-budget", flags->profile_budget_s,
                  "Seconds of measuring before the plan (a missing node model's calibration included); default: "
                  "10 % of the batch's predicted time once some kind of it is known (the others at a guess), else "
                  "none")
      ->check(CLI::Range(0.0, cosched::kMaxSeconds))
      ->excludes(resume);
  sub->add_option("--node", flags->node, "Node bandwidth model (cosched calibrate); default: the cache's (none: "
                                         "contention is not predicted unless --profile-budget pays a calibration)");
  sub->add_option("--platform", flags->platform, "Platform TOML; default: this machine (an emulated fast tier where "
                                                 "it has none)")
      ->check(CLI::ExistingFile)
      ->excludes(resume);
  sub->add_option("--placement", flags->placement, "How commands get their fast share (docs/launcher.md)")
      ->check(CLI::IsMember(cosched::platform::command_placement_names()))
      ->capture_default_str();
  sub->add_option("--reps", flags->reps, "Timed runs per point of a calibration")->check(CLI::Range(1U, 1000U))
      ->capture_default_str();
  sub->add_option("--timeout", flags->timeout_s, "Per-task timeout in seconds, its profiled runs included (SIGTERM, then SIGKILL)")
      ->check(cosched::app::finite_positive(cosched::kMaxSeconds));
  sub->add_flag("--explore,!--no-explore", flags->explore,
                "Let a task run with more fast chunks, or more cores while its kind is known at one core count "
                "only, where its kind never ran and the plan has room anyway, so the next batch knows more "
                "(default: on)")
      ->excludes(resume);
  sub->add_flag("--replan,!--no-replan", flags->replan,
                "When the first task of a kind never measured ends, or a kind known at one core count ends at "
                "another, plan the tasks still pending again from what it took (default: on)")
      ->excludes(resume);
  cosched::cli::add_memory_warm_up_option(*sub, flags->memory_warm_up);
  sub->add_flag("--slurm", flags->slurm,
                "Inside a Slurm allocation: planned over its nodes, one job step per node (docs/cluster.md)");
  cosched::cli::add_progress_option(*sub, *progress);
  sub->callback([flags, progress] {
    if (flags->dry_run && flags->resume) throw cosched::UsageError("--dry-run plans a new run; --resume continues one");
    const auto reporter = cosched::cli::command_reporter(*progress, {stdout, stdout, stdout});
    cosched::workflow::run_batch(*flags, *reporter);
  });
}};

}  // namespace
