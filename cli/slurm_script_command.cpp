// `cosched slurm-script PLAN_DIR`: the sbatch script of a cluster plan, for users who submit rather than allocate
// interactively (docs/cluster.md).
#include <memory>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/workflow/slurm_launch.hpp"

namespace {

const cosched::cli::CommandRegistration slurm_script_registration{"slurm-script", [](CLI::App& app) {
  auto* sub = app.add_subcommand("slurm-script", "Write the sbatch script of a cluster plan (docs/cluster.md)");
  auto flags = std::make_shared<cosched::workflow::SlurmScriptOptions>();
  sub->add_option("plan", flags->plan, "Plan folder of `cosched plan --nodes N --output DIR`")->required();
  sub->add_option("-o,--output", flags->output, "Write the script here (default -: stdout)");
  sub->add_option("--job-name", flags->job_name, "Slurm job name")->capture_default_str();
  sub->add_option("--margin", flags->margin, "--time = margin x the predicted makespan + --slack")
      ->check(cosched::app::finite_range(1.0, 1000.0))
      ->capture_default_str();
  sub->add_option("--slack", flags->slack_s, "Seconds added to the time limit (start-up, profiling, merge)")
      ->check(cosched::app::finite_range(0.0, cosched::kMaxSeconds))
      ->capture_default_str();
  sub->add_option("--platform", flags->platform, "Platform TOML every node's launch uses (passed to launch)")
      ->check(CLI::ExistingFile);
  sub->add_flag("--force", flags->force, "Replace an existing --output file");
  sub->callback([flags] { cosched::workflow::write_slurm_script(*flags); });
}};

}  // namespace
