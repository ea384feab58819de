#pragma once
// A workload: which tasks to schedule, as kernel x footprint x count (configs/workloads/*.toml):
//   name = "fig3-mix"
//   [[tasks]]
//   kernel = "triad"
//   footprint_mib = 256              # or footprint_percent_of_fast = 60 (of the platform's fast capacity)
//   count = 10
//   passes = 20                      # optional (default 1): kernel passes per task; times scale with it
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cosched/profiler/platform_config.hpp"

namespace cosched::profiler {

struct WorkloadEntry {
  std::string kernel;
  std::uint64_t footprint_bytes = 0;
  unsigned count = 1;
  unsigned passes = 1;
};

struct Workload {
  std::string name;
  std::vector<WorkloadEntry> entries;
};

// Throws InputError("file:line", ...) for unknown keys, missing or invalid values, an empty workload.
// The id `cosched instance` gives the k-th task (k from 0, per kernel and footprint, in file order) of a workload
// entry: "<kernel>-<footprint in MiB>MiB-<k>", e.g. "triad-256MiB-3". The launcher maps schedules back with it.
[[nodiscard]] std::string workload_task_id(const std::string& kernel, std::uint64_t footprint_bytes, unsigned k);

[[nodiscard]] Workload load_workload(const std::filesystem::path& path, const PlatformConfig& platform);

}  // namespace cosched::profiler
