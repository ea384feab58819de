#pragma once
// The one owner of "run a plan on this node": every pipeline that launches — `cosched launch`, `cosched online
// --launch`, `cosched run`, the demo — takes its node, its tier, the launcher's settings and the verdict on an
// interrupted or failed run from here, and launcher::launch is called here and nowhere else.
#include <filesystem>
#include <optional>
#include <string>

#include "cosched/common/reporter.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/sim/plan.hpp"

namespace cosched::workflow {

// What a run on this node takes besides its plan (the launch flags of docs/launcher.md).
struct LaunchOptions {
  std::string platform;      // platform TOML; empty: this machine as detected
  std::string tier_backend;  // overrides the platform's
  unsigned chunks = config::kDefaultFastChunks;  // fast chunks of this machine (without `platform`)
  std::string journal;       // empty: the pipeline's default journal
  bool resume = false;       // continue `journal`: only its unfinished tasks run
  bool force = false;        // a new run replaces an existing journal
  std::string log_dir;       // task stdout/stderr; empty: <journal>.logs/
  std::string placement = "preferred";  // how command tasks get their fast share
  std::optional<double> timeout_s;      // per task (SIGTERM, then SIGKILL after kill_grace_s)
  double kill_grace_s = 2.0;
  double max_wait_s = launcher::kDefaultMaxWaitSeconds;
  std::string containment = std::string(exec::kDefaultTreeContainment);
  std::string memory_warm_up = "auto";  // launcher::parse_memory_warm_up_mode
  bool fail_fast = false;
};

// The node a run uses and how its tasks get their fast share.
struct RunNode {
  config::PlatformConfig platform;                    // the platform file's, or this machine as detected
  std::optional<config::PlatformConfig> platform_file;  // when a file was given (it sizes footprints in % of fast)
  exec::TierSetup tier;
  // "<cores> cores[ + <n> fast chunks], tier backend <backend>[ (EMULATED fast tier)]"
  [[nodiscard]] std::string description() const;
};

// The node of `options`: its platform file, or this machine with its tier backend and chunks.
[[nodiscard]] RunNode run_node(const LaunchOptions& options);
// `platform` with its tier, commands placed by `placement`.
[[nodiscard]] RunNode run_node(const config::PlatformConfig& platform, const std::string& placement = "preferred");

// The launcher's settings for `options` on `node`, journaling to options.journal or else `default_journal`. Inside
// a Slurm step they carry the step (SLURMD_NODENAME, SLURM_JOB_ID, SLURM_STEP_ID) for the journal header.
[[nodiscard]] launcher::LaunchSettings launch_settings(const LaunchOptions& options, const RunNode& node,
                                                       const std::filesystem::path& default_journal);

// Runs `plan` (what is left of it on resume) as `settings` say. With `progress`, the launch's progress is
// reported as it happens (after what was reported before is delivered: the tasks write to the same terminal).
[[nodiscard]] launcher::LaunchSummary launch_on_node(const sim::LaunchPlan& plan, const config::Workload& workload,
                                                     const launcher::LaunchSettings& settings,
                                                     Reporter* progress);

// What to tell the user when a launch did not complete: how to continue an interrupted one, and where a failed
// one's logs are (empty: failed tasks are the caller's to report).
struct UnfinishedLaunch {
  std::string continue_how;  // "resume with --resume run.jsonl"
  std::string failed_where;  // " (see run.jsonl)"
};

// The verdict on a finished launch: RuntimeFailure (exit 6) "interrupted: <continue_how>" when it was interrupted,
// "<n> task(s) failed<failed_where>" when a task failed and `failed_where` is not empty.
void require_completed(const launcher::LaunchSummary& summary, const UnfinishedLaunch& unfinished);

}  // namespace cosched::workflow
