#pragma once
// The folder of one `cosched run` (docs/launcher.md, "Your own batch: cosched run"): the plan it launches, written
// before anything runs, and the journal of the launch — what `--resume` continues without profiling or planning
// again.
//   platform.toml    the node the batch was planned for
//   instance.json    the batch with its profiled times, memory pools and traffic (what each task runs)
//   schedule.json    the plan
//   journal.jsonl    the launch (+ journal.jsonl.logs/: each task's stdout and stderr)
//   cluster-plan/    with --slurm: the plan over the allocation's nodes (docs/cluster.md) instead of schedule.json
//   .cosched-run     what makes the folder a cosched run's: made by the run that took the folder, locked (flock) by
//                    the run using it from before it writes anything until it ends; it names that run (pid, host)
// A dry run writes the plan only.
#include <filesystem>
#include <optional>
#include <string_view>

#include "cosched/common/file_lock.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/launcher/launch_inputs.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::launcher {

struct RunFolder {
  std::filesystem::path dir;
  [[nodiscard]] std::filesystem::path platform() const { return dir / "platform.toml"; }
  [[nodiscard]] std::filesystem::path instance() const { return dir / "instance.json"; }
  [[nodiscard]] std::filesystem::path schedule() const { return dir / "schedule.json"; }
  [[nodiscard]] std::filesystem::path journal() const { return dir / "journal.jsonl"; }
  [[nodiscard]] std::filesystem::path cluster_plan() const;  // cluster-plan/
  [[nodiscard]] std::filesystem::path marker() const;        // .cosched-run
};

// The folder a batch file runs in without --output: ./cosched-run-<the file's name without extension>, or when a
// finished run is there already (its journal's last segment ends with batch_end), the first of ./cosched-run-<name>-2,
// -3, ... that holds no finished run — running the same batch again is what a user of a tool that learns from its
// runs does, and the runs before are kept. A folder that holds anything else (an unfinished run, a dry run's plan,
// files of the user's) ends the search there, for check_run_folder to judge. With `resume` or `force` the last folder
// of that sequence that exists is the one meant (the base one when none does).
[[nodiscard]] RunFolder default_run_folder(const std::filesystem::path& batch, bool resume = false,
                                           bool force = false);

// Before any work, writing nothing. A new run needs a folder that is absent, empty, or a cosched run's (its marker)
// holding only a plan (a dry run's: replaced); a run's journal, or files in a folder that is not a run's (a user's
// own instance.json or platform.toml), are replaced only with `force` (UsageError otherwise, naming --resume and
// --force). `resume` needs the plan (UsageError naming what is missing); `slurm` looks for the cluster plan instead
// of the schedule.
void check_run_folder(const RunFolder& folder, bool resume, bool force, bool slurm);

// One run's hold on its folder, taken before the run writes anything (there or in the profile cache) and kept until
// it ends: the folder made when missing, its marker made and locked, then check_run_folder again under the lock.
// Another run of the same folder — a second `cosched run`, its --force or --resume — is refused at once (UsageError
// naming the holder's pid and host), before it writes anything; a killed holder releases it (the kernel's lock).
// A claim whose run wrote nothing in the folder leaves it as it was found: the marker and a folder it made go.
class RunFolderClaim {
 public:
  RunFolderClaim(const RunFolder& folder, bool resume, bool force, bool slurm);
  ~RunFolderClaim();
  RunFolderClaim(const RunFolderClaim&) = delete;
  RunFolderClaim& operator=(const RunFolderClaim&) = delete;

 private:
  void release() noexcept;

  RunFolder folder_;
  std::optional<FileLock> lock_;
  bool made_folder_ = false;
  bool made_marker_ = false;
};

// The plan, written whole (creating the folder): platform, instance and, unless `schedule` is null (a cluster
// run writes its plan folder itself), the schedule.
void write_run_plan(const RunFolder& folder, const config::PlatformConfig& platform, const sched::Instance& instance,
                    const sched::Schedule* schedule);

// The plan as `cosched launch schedule.json --workload instance.json --instance instance.json --platform
// platform.toml` reads it: the launch plan with its bandwidth model and what each task runs.
[[nodiscard]] LaunchInputs read_run_plan(const RunFolder& folder);
// The plan just written by write_run_plan, as read_run_plan would read it back, from memory: the same launch plan
// and workload (what each task runs, named after the folder's instance.json), so that a later --resume finds the
// journal written for the plan it reads.
[[nodiscard]] LaunchInputs run_plan_inputs(const RunFolder& folder, const sched::Instance& instance,
                                           const sched::Schedule& schedule);

// On resume: the batch given now must be the one planned (the same ids running the same things). Throws
// InputError naming the first task that differs, and how to start over (--force).
void check_same_batch(const config::Workload& batch, const config::Workload& planned, const RunFolder& folder);

}  // namespace cosched::launcher
