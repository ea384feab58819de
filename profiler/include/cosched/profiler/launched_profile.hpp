#pragma once
// Profiles a batch's tasks as the launcher runs them — whole child processes, bound to their cores with their
// fast share — into a profile CSV with its sidecar: STREAM tasks with the process measurer, commands with the
// command measurer. A profile made this way predicts what a launch observes (start-up, allocation, first touch
// and validation included); the demo profiles its batches this way, `cosched profile --measurer process` and
// `--command` are the same measurers point by point.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>

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

struct LaunchedProfileOptions {
  config::PlatformConfig platform;    // the node: its cores and fast chunks (tier_backend: the tier measured)
  exec::TierSetup tier;               // how the tasks get their fast share
  std::filesystem::path stream_bench; // STREAM tasks: the stream_bench executable
  unsigned reps = 1;                  // timed runs per point
  bool vary_chunks = true;            // false: chunks = 0 only (cores scheduled, memory where the tier puts it)
  std::FILE* progress = nullptr;      // progress lines (a live line on a terminal); null: none
};

// Every (kernel, footprint) group at 1 .. platform.cores cores and its bracketing chunks, timed per pass over
// runs of the group's passes (TaskPasses). Throws RuntimeFailure when a run fails.
SweepOutcome profile_stream_groups(const std::vector<config::StreamTaskGroup>& groups,
                                   const LaunchedProfileOptions& options, const std::filesystem::path& csv);

// One profile per distinct command of `workload` (same argv and footprint): a task's "profile" names it, else it
// gets "cmd<k>"; every task's `profile` is set to its command's name. Throws UsageError for a STREAM task and
// InputError when one profile name stands for two different commands.
[[nodiscard]] std::vector<CommandProfileSpec> distinct_commands(config::Workload& workload);

// Every command at 1 .. platform.cores cores and, where the tier places commands, 0, half and all of the chunks.
// A failed run marks its point failed (the outcome lists them); the caller decides whether that is fatal.
SweepOutcome profile_commands(const std::vector<CommandProfileSpec>& commands, const LaunchedProfileOptions& options,
                              const std::filesystem::path& csv);

}  // namespace cosched::profiler
