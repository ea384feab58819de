// `cosched slurm-script PLAN_DIR`: the sbatch script of a cluster plan, for users who submit rather than allocate
// interactively (docs/cluster.md).
#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <string>

#include "cosched/launcher/cluster/slurm_launch.hpp"
#include "command_registry.hpp"
#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/app/run_main.hpp"

namespace {

struct SlurmScriptFlags {
  std::string plan;
  std::string output = "-";
  std::string job_name = "cosched";
  double margin = 1.5;
  double slack_s = 300.0;
  std::string platform;
  bool force = false;
};

void run_slurm_script(const SlurmScriptFlags& flags) {
  try {
    cosched::check_identifier(flags.job_name, "--job-name");
  } catch (const cosched::InputError& error) {
    throw cosched::UsageError(error.what());
  }
  const auto overwrite = cosched::overwrite_if_forced(flags.force);
  cosched::check_output_path(flags.output, overwrite, "sbatch script");
  const auto plan = std::filesystem::absolute(flags.plan).lexically_normal();
  const auto manifest = cosched::sched::load_cluster_manifest(plan);
  cosched::launcher::slurm::ScriptOptions options;
  options.cosched = cosched::launcher::this_executable();
  options.plan = plan;
  options.job_name = flags.job_name;
  options.margin = flags.margin;
  options.slack_s = flags.slack_s;
  if (!flags.platform.empty()) {
    // Read here, as every node's launch will: a platform they would refuse (a NaN capacity) is refused now.
    (void)cosched::config::load_platform_config(flags.platform);
    options.launch_options = {"--platform", std::filesystem::absolute(flags.platform).string()};
  }
  cosched::launcher::slurm::check_script_output(flags.output, manifest, options);
  cosched::write_text_file(flags.output, cosched::launcher::slurm::sbatch_script(manifest, options), overwrite,
                           "sbatch script");
}

const cosched::cli::CommandRegistration slurm_script_registration{"slurm-script", [](CLI::App& app) {
  auto* sub = app.add_subcommand("slurm-script", "Write the sbatch script of a cluster plan (docs/cluster.md)");
  auto flags = std::make_shared<SlurmScriptFlags>();
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
  sub->callback([flags] { run_slurm_script(*flags); });
}};

}  // namespace
