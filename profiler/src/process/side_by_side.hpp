#pragma once
// What the process and command measurers share for their memory-demand probe (issues 24 and 23): copies of one
// task bound to cores of their own, started together and timed each from its fork to its reap.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/workload.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/platform/core_allocator.hpp"
#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

// Seconds a run that outlived its timeout gets between SIGTERM and SIGKILL (as `cosched launch`'s default).
inline constexpr double kKillGraceSeconds = 2.0;

// The launches of `copies` copies of `task` at `point`, each bound to cores of its own (allocated together, so they
// differ, then released: one point runs at a time, so the binding is what counts). `stream_bench` as
// exec::build_task_launch takes it (empty for a command).
[[nodiscard]] std::vector<exec::TaskLaunch> launches_on_own_cores(platform::CoreAllocator& cores,
                                                                  const config::WorkloadTask& task,
                                                                  const ProfilePoint& point, std::size_t copies,
                                                                  const exec::TierSetup& tier,
                                                                  const std::filesystem::path& stream_bench);

// Whether `point` is the memory-demand probe's: `pair_cores` cores each (0: no probe), no fast chunk, and room on
// `cores` for two copies.
[[nodiscard]] bool is_probe_point(const ProfilePoint& point, unsigned pair_cores, const platform::CoreAllocator& cores);

// The launches run at once; `seconds` holds each one's time from its fork to its reap when all ended well, else
// `failure` says why (a copy that could not start, ended badly, or outlived `timeout_s`: the others are killed).
// `warm_bytes` (0: none) is touched and freed just before (platform::warm_up_memory): where the host takes free
// memory back (platform/host_memory.hpp), what the copies will hold together, so that the pair does not pay for
// faulting memory back in through the host, which the run alone did not and a launch after its warm-up does not.
struct SideBySide {
  std::vector<double> seconds;
  std::string failure;
};
[[nodiscard]] SideBySide run_side_by_side(const std::vector<exec::TaskLaunch>& launches,
                                          std::optional<double> timeout_s, std::uint64_t warm_bytes);

}  // namespace cosched::profiler
