#pragma once
// What `cosched launch` and `cosched online --launch` share: the flags of a run on this node (platform, tier
// backend, journal, resume, timeouts, logs), parsed into the pipeline's LaunchOptions.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/workflow/node_launch.hpp"

namespace cosched::cli {

// The launch flags, parsed straight into the pipeline's options; --resume is parsed apart: it names the journal to
// continue (with --slurm a bare flag, every node's journal).
struct LaunchFlags {
  workflow::LaunchOptions options;
  std::string resume;
  const CLI::Option* resume_option = nullptr;
  [[nodiscard]] bool resume_given() const { return resume_option != nullptr && resume_option->count() > 0; }
};

// --memory-warm-up auto|on|off into `value` (launcher::parse_memory_warm_up_mode; docs/launcher.md).
void add_memory_warm_up_option(CLI::App& sub, std::string& value);


// Adds --platform, --journal, --resume, --tier-backend, --placement, --chunks, --timeout, --kill-grace,
// --max-wait, --containment, --memory-warm-up, --log-dir, --fail-fast and --force to `sub`.
void add_launch_flags(CLI::App& sub, LaunchFlags& flags);

// The pipeline's launch options (cosched/workflow/node_launch.hpp) from the flags: the journal is --resume's or
// --journal's. Throws UsageError when --journal and --resume name different files, or --resume names none.
[[nodiscard]] workflow::LaunchOptions launch_options(const LaunchFlags& flags);

// The options a node's step of `cosched launch PLAN --slurm` passes on: --platform, --tier-backend, --chunks,
// --timeout, --kill-grace, --max-wait, --containment, --memory-warm-up, --fail-fast when given. Throws UsageError
// for --journal, --log-dir (the plan folder holds every node's journal and logs).
[[nodiscard]] std::vector<std::string> step_launch_options(const LaunchFlags& flags);

}  // namespace cosched::cli
