#include "launch_options.hpp"

#include <fmt/core.h>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/exec/process_tree.hpp"
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
  workflow::LaunchOptions& options = flags.options;
  sub.add_option("--platform", options.platform, "Platform TOML (cores, fast chunks, tier backend); "
                                               "default: this machine as detected");
  sub.add_option("--journal", options.journal, "Journal to write");
  auto* resume = sub.add_option("--resume", flags.resume,
                                "Continue the run this journal records: only unfinished tasks run (with --slurm: a "
                                "bare flag, every node's journal)")
                     ->expected(0, 1);
  flags.resume_option = resume;
  sub.add_option("--tier-backend", options.tier_backend, "Override the platform's tier backend");
  sub.add_option("--placement", options.placement,
                 "How command tasks get their fast share on a tier that places commands: preferred, bind, "
                 "weighted-interleave, autohbw, none (docs/launcher.md)")
      ->check(CLI::IsMember(platform::command_placement_names()))
      ->capture_default_str();
  sub.add_option("--chunks", options.chunks, "Fast chunks without --platform")
      ->check(CLI::Range(1U, config::kMaxFastChunks))
      ->capture_default_str();
  sub.add_option("--timeout", options.timeout_s, "Per-task timeout in seconds (SIGTERM, then SIGKILL)")
      ->check(app::finite_positive(kMaxSeconds));
  sub.add_option("--kill-grace", options.kill_grace_s, "Seconds between SIGTERM and SIGKILL")
      ->check(app::finite_range(0.0, kMaxSeconds))
      ->capture_default_str();
  sub.add_option("--max-wait", options.max_wait_s,
                 "Longest idle wait for a planned start or release the plan may ask for, in seconds; a plan that "
                 "would idle longer is refused before any work")
      ->check(app::finite_positive(kMaxSeconds))
      ->capture_default_str();
  sub.add_option("--containment", options.containment,
                 "How each task's process tree is held and killed with it: process-group (daemons that leave "
                 "the group escape), cgroup (holds them too; about 1 ms more per task), auto (cgroup where this "
                 "process may make one, else process-group); docs/launcher.md")
      ->check(CLI::IsMember(exec::tree_containment_names()))
      ->capture_default_str();
  add_memory_warm_up_option(sub, options.memory_warm_up);
  sub.add_option("--log-dir", options.log_dir, "Task stdout/stderr (default: <journal>.logs/, one pair of files per "
                                             "attempt)");
  sub.add_flag("--fail-fast", options.fail_fast, "Stop the batch at the first failed task");
  sub.add_flag("--force", options.force, "Replace an existing journal (a new run; --resume continues one instead)")
      ->excludes(resume);
}

workflow::LaunchOptions launch_options(const LaunchFlags& flags) {
  if (flags.resume_given() && flags.resume.empty()) {
    throw UsageError("--resume needs the journal to continue (a bare --resume only with --slurm)");
  }
  workflow::LaunchOptions options = flags.options;
  if (!options.journal.empty() && !flags.resume.empty() && options.journal != flags.resume) {
    throw UsageError("--journal and --resume name different files: --resume continues its own journal");
  }
  options.resume = !flags.resume.empty();
  if (options.resume) options.journal = flags.resume;
  return options;
}

std::vector<std::string> step_launch_options(const LaunchFlags& flags) {
  const workflow::LaunchOptions& given = flags.options;
  if (!given.journal.empty() || !given.log_dir.empty()) {
    throw UsageError("--journal and --log-dir do not go with --slurm: every node's journal and logs are in the plan "
                     "folder");
  }
  std::vector<std::string> options;
  if (!given.platform.empty()) {
    options.insert(options.end(), {"--platform", std::filesystem::absolute(given.platform).string()});
  }
  if (!given.tier_backend.empty()) options.insert(options.end(), {"--tier-backend", given.tier_backend});
  if (given.chunks != config::kDefaultFastChunks) {
    options.insert(options.end(), {"--chunks", std::to_string(given.chunks)});
  }
  if (given.timeout_s) options.insert(options.end(), {"--timeout", fmt::format("{}", *given.timeout_s)});
  options.insert(options.end(), {"--kill-grace", fmt::format("{}", given.kill_grace_s)});
  options.insert(options.end(), {"--max-wait", fmt::format("{}", given.max_wait_s)});
  options.insert(options.end(), {"--containment", given.containment});
  options.insert(options.end(), {"--memory-warm-up", given.memory_warm_up});
  if (given.fail_fast) options.emplace_back("--fail-fast");
  return options;
}

}  // namespace cosched::cli
