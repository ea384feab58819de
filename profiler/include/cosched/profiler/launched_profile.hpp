#pragma once
// Profiles a batch's tasks as the launcher runs them — whole child processes, bound to their cores with their
// fast share — into a profile CSV with its sidecar: STREAM tasks with the process measurer, commands with the
// command measurer. A profile made this way predicts what a launch observes (start-up, allocation, first touch
// and validation included); the demo profiles its batches this way, `cosched profile --measurer process` and
// `--command` are the same measurers point by point.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/profiler/process_measurer.hpp"
#include "cosched/profiler/sweep.hpp"
#include "cosched/profiler/sweep_config.hpp"

namespace cosched::profiler {

// The fast-chunk counts that bracket a footprint on `platform`: none, half of what it needs to be all fast, and
// all of that — the interpolation is linear in between and flat beyond, which is the shape a tier gives (Fig. 2).
[[nodiscard]] std::vector<unsigned> bracketing_chunks(std::uint64_t footprint_bytes,
                                                      const config::PlatformConfig& platform);

// The pass counts that profile a task of `passes` passes for any passes: 1 and max(passes, 5) — the task's own
// count is then measured, not extrapolated, and a one-pass task still gets 4 passes of difference to time.
[[nodiscard]] PassCounts fixed_cost_passes(unsigned passes);

struct LaunchedProfileOptions {
  config::PlatformConfig platform;    // the node: its cores and fast chunks (tier_backend: the tier measured)
  exec::TierSetup tier;               // how the tasks get their fast share
  std::filesystem::path stream_bench; // STREAM tasks: the stream_bench executable
  unsigned reps = 1;                  // timed runs per point
  bool vary_chunks = true;            // false: chunks = 0 only (cores scheduled, memory where the tier puts it)
  // STREAM tasks: each timed at its group's passes only (the demo, whose instances run exactly those), or at
  // fixed_cost_passes: a run's fixed cost apart from its cost per pass, for tasks of any passes (`cosched run`).
  bool separate_fixed_cost = false;
  // Commands: the deadline of a run of a command that has no timeout_s of its own (`cosched run --timeout`: one
  // deadline for everything a run starts, its profiling included — a command that hung while profiled hung the run).
  std::optional<double> command_timeout_s;
  Reporter* reporter = nullptr;       // the sweeps' progress; null: none
};

// Every (kernel, footprint) group at 1 .. platform.cores cores and its bracketing chunks, timed per pass over
// runs of the group's passes (TaskPasses; with separate_fixed_cost, the largest passes of the groups of a kernel
// and footprint). Throws RuntimeFailure when a run fails.
SweepOutcome profile_stream_groups(const std::vector<config::StreamTaskGroup>& groups,
                                   const LaunchedProfileOptions& options, const std::filesystem::path& csv);

// RuntimeFailure when Ctrl-C (SIGINT, SIGTERM) stopped the sweep into `csv` (profile_stream_groups,
// profile_commands: the point being measured finishes, the sidecar says the profile is partial): one message
// naming what was written.
void throw_if_interrupted(const SweepOutcome& outcome, const std::filesystem::path& csv);

// One profile per distinct command of `workload` (same argv, environment and footprint): a task's "profile" names
// it, else it gets "cmd<k>"; every task's `profile` is set to its command's name. Throws UsageError for a STREAM
// task (unless `stream_tasks_allowed`: they are then left alone) and InputError when one profile name stands for
// two different commands.
[[nodiscard]] std::vector<CommandProfileSpec> distinct_commands(config::Workload& workload,
                                                                bool stream_tasks_allowed = false);

// Every command at 1 .. platform.cores cores and, where the tier places commands, 0, half and all of the chunks, a
// run of a command without its own timeout killed after options.command_timeout_s.
// A failed run marks its point failed (the outcome lists them); the caller decides whether that is fatal.
SweepOutcome profile_commands(std::vector<CommandProfileSpec> commands, const LaunchedProfileOptions& options,
                              const std::filesystem::path& csv);

}  // namespace cosched::profiler
