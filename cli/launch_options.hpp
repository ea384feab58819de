#pragma once
// What `cosched launch` and `cosched online --launch` share: the options of a run on this node (platform, tier
// backend, journal, resume, timeouts, logs), turning them into the node and the launcher's settings, and how a
// finished run is reported (the summary; exit 6 when it was interrupted or a task failed).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/launcher/launch.hpp"

namespace cosched::cli {

struct LaunchFlags {
  std::string platform;
  std::string journal;
  std::string resume;
  std::string tier_backend;
  std::string log_dir;
  std::string placement = "preferred";
  unsigned chunks = config::kDefaultFastChunks;
  std::optional<double> timeout_s;
  double kill_grace_s = 2.0;
  double max_wait_s = launcher::kDefaultMaxWaitSeconds;
  std::string containment = std::string(exec::kDefaultTreeContainment);
  std::string memory_warm_up = "auto";
  bool fail_fast = false;
  bool force = false;
  // --resume given at all: with --slurm it is a bare flag (every node's journal), otherwise it names the journal.
  const CLI::Option* resume_option = nullptr;
  [[nodiscard]] bool resume_given() const { return resume_option != nullptr && resume_option->count() > 0; }
};

// --memory-warm-up auto|on|off into `value` (launcher::parse_memory_warm_up_mode; docs/launcher.md).
void add_memory_warm_up_option(CLI::App& sub, std::string& value);


// Adds --platform, --journal, --resume, --tier-backend, --placement, --chunks, --timeout, --kill-grace,
// --max-wait, --containment, --memory-warm-up, --log-dir, --fail-fast and --force to `sub`.
void add_launch_flags(CLI::App& sub, LaunchFlags& flags);

using LaunchNode = config::RunPlatform;

// The node the run uses: --platform, or this machine (with --tier-backend and --chunks).
[[nodiscard]] LaunchNode launch_node(const LaunchFlags& flags);

// The launcher's settings for `flags` on `node`; the journal is --resume's, --journal, or `default_journal`.
// Throws UsageError when --journal and --resume name different files, or --resume names none. Inside a Slurm
// step the settings carry the step (SLURMD_NODENAME, SLURM_JOB_ID, SLURM_STEP_ID) for the journal header.
[[nodiscard]] launcher::LaunchSettings launch_settings(const LaunchFlags& flags, const config::PlatformConfig& node,
                                                       const std::filesystem::path& default_journal);

// The options a node's step of `cosched launch PLAN --slurm` passes on: --platform, --tier-backend, --chunks,
// --timeout, --kill-grace, --max-wait, --containment, --memory-warm-up, --fail-fast when given. Throws UsageError for --journal, --log-dir (the plan folder
// holds every node's journal and logs).
[[nodiscard]] std::vector<std::string> step_launch_options(const LaunchFlags& flags);

// Prints the summary; throws RuntimeFailure (exit 6) when the run was interrupted or a task failed.
void report_launch(const launcher::LaunchSummary& summary, const launcher::LaunchSettings& settings);

}  // namespace cosched::cli
