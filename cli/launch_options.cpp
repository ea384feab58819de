#include "launch_options.hpp"

#include <fmt/core.h>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/platform/command_placement.hpp"
#include "cosched/app/run_main.hpp"

namespace cosched::cli {

void add_memory_warm_up_option(CLI::App& sub, std::string& value) {
  sub.add_option("--memory-warm-up", value,
                 "Touch and free the most memory the plan's tasks hold at once just before the batch starts, so they "
                 "find it resident: "
                 "auto (where the hypervisor takes back free memory: free page reporting), on, off; docs/launcher.md")
      ->check(CLI::IsMember(launcher::memory_warm_up_mode_names()))
      ->capture_default_str();
}

void add_launch_flags(CLI::App& sub, LaunchFlags& flags) {
  sub.add_option("--platform", flags.platform, "Platform TOML (cores, fast chunks, tier backend); "
                                               "default: this machine as detected");
  sub.add_option("--journal", flags.journal, "Journal to write");
  auto* resume = sub.add_option("--resume", flags.resume,
                                "Continue the run this journal records: only unfinished tasks run (with --slurm: a "
                                "bare flag, every node's journal)")
                     ->expected(0, 1);
  flags.resume_option = resume;
  sub.add_option("--tier-backend", flags.tier_backend, "Override the platform's tier backend");
  sub.add_option("--placement", flags.placement,
                 "How command tasks get their fast share on a tier that places commands: preferred, bind, "
                 "weighted-interleave, autohbw, none (docs/launcher.md)")
      ->check(CLI::IsMember(platform::command_placement_names()))
      ->capture_default_str();
  sub.add_option("--chunks", flags.chunks, "Fast chunks without --platform")
      ->check(CLI::Range(1U, config::kMaxFastChunks))
      ->capture_default_str();
  sub.add_option("--timeout", flags.timeout_s, "Per-task timeout in seconds (SIGTERM, then SIGKILL)")
      ->check(app::finite_positive(kMaxSeconds));
  sub.add_option("--kill-grace", flags.kill_grace_s, "Seconds between SIGTERM and SIGKILL")
      ->check(app::finite_range(0.0, kMaxSeconds))
      ->capture_default_str();
  sub.add_option("--max-wait", flags.max_wait_s,
                 "Longest idle wait for a planned start or release the plan may ask for, in seconds; a plan that "
                 "would idle longer is refused before any work")
      ->check(app::finite_positive(kMaxSeconds))
      ->capture_default_str();
  sub.add_option("--containment", flags.containment,
                 "How each task's process tree is held and killed with it: process-group (daemons that leave "
                 "the group escape), cgroup (holds them too; about 1 ms more per task), auto (cgroup where this "
                 "process may make one, else process-group); docs/launcher.md")
      ->check(CLI::IsMember(exec::tree_containment_names()))
      ->capture_default_str();
  add_memory_warm_up_option(sub, flags.memory_warm_up);
  sub.add_option("--log-dir", flags.log_dir, "Task stdout/stderr (default: <journal>.logs/, one pair of files per "
                                             "attempt)");
  sub.add_flag("--fail-fast", flags.fail_fast, "Stop the batch at the first failed task");
  sub.add_flag("--force", flags.force, "Replace an existing journal (a new run; --resume continues one instead)")
      ->excludes(resume);
}

LaunchNode launch_node(const LaunchFlags& flags) {
  return config::run_platform(flags.platform, flags.tier_backend, flags.chunks);
}

launcher::LaunchSettings launch_settings(const LaunchFlags& flags, const config::PlatformConfig& node,
                                         const std::filesystem::path& default_journal) {
  if (flags.resume_given() && flags.resume.empty()) {
    throw UsageError("--resume needs the journal to continue (a bare --resume only with --slurm)");
  }
  if (!flags.journal.empty() && !flags.resume.empty() && flags.journal != flags.resume) {
    throw UsageError("--journal and --resume name different files: --resume continues its own journal");
  }
  launcher::LaunchSettings settings;
  settings.resume = !flags.resume.empty();
  settings.force = flags.force;
  settings.journal = settings.resume         ? std::filesystem::path(flags.resume)
                     : flags.journal.empty() ? default_journal
                                             : std::filesystem::path(flags.journal);
  settings.engine.fail_fast = flags.fail_fast;
  settings.clock.timeout_s = flags.timeout_s;
  settings.clock.kill_grace_s = flags.kill_grace_s;
  settings.tier = exec::make_tier_setup(node, flags.placement);
  settings.log_dir = flags.log_dir;
  settings.max_wait_s = flags.max_wait_s;
  settings.containment = flags.containment;
  settings.memory_warm_up = launcher::parse_memory_warm_up_mode(flags.memory_warm_up);
  settings.slurm = launcher::slurm::step_from_environment(launcher::slurm::process_environment());
  return settings;
}

std::vector<std::string> step_launch_options(const LaunchFlags& flags) {
  if (!flags.journal.empty() || !flags.log_dir.empty()) {
    throw UsageError("--journal and --log-dir do not go with --slurm: every node's journal and logs are in the plan "
                     "folder");
  }
  std::vector<std::string> options;
  if (!flags.platform.empty()) {
    options.insert(options.end(), {"--platform", std::filesystem::absolute(flags.platform).string()});
  }
  if (!flags.tier_backend.empty()) options.insert(options.end(), {"--tier-backend", flags.tier_backend});
  if (flags.chunks != config::kDefaultFastChunks) {
    options.insert(options.end(), {"--chunks", std::to_string(flags.chunks)});
  }
  if (flags.timeout_s) options.insert(options.end(), {"--timeout", fmt::format("{}", *flags.timeout_s)});
  options.insert(options.end(), {"--kill-grace", fmt::format("{}", flags.kill_grace_s)});
  options.insert(options.end(), {"--max-wait", fmt::format("{}", flags.max_wait_s)});
  options.insert(options.end(), {"--containment", flags.containment});
  options.insert(options.end(), {"--memory-warm-up", flags.memory_warm_up});
  if (flags.fail_fast) options.emplace_back("--fail-fast");
  return options;
}

void report_launch(const launcher::LaunchSummary& summary, const launcher::LaunchSettings& settings) {
  fmt::print("{}", launcher::format_summary(summary));
  if (summary.observed.interrupted) {
    throw RuntimeFailure("interrupted: resume with --resume " + settings.journal.string());
  }
  if (summary.observed.failed > 0) {
    throw RuntimeFailure(
        fmt::format("{} task(s) failed (see {})", summary.observed.failed, settings.journal.string()));
  }
}

}  // namespace cosched::cli
