#pragma once
// What each scheduled task runs. A schedule names its tasks by id; the workload gives every id its command:
//   - a STREAM task (kernel, footprint, passes) runs stream_bench on its cores with its fast fraction;
//   - any other program runs as given, argv with {threads}, {cpuset}, {cores} and {fast_bytes} substituted.
// Sources (docs/launcher.md):
//   - an Instance JSON from `cosched instance` (its tasks carry "kernel", "footprint_bytes", "passes");
//   - a workload TOML (configs/workloads/), expanded to ids exactly as `cosched instance` names them:
//     "<kernel>-<footprint MiB>MiB-<k>", k counting per kernel and footprint in file order;
//   - a JSON {"tasks": [{"id": ..., "command": [...], "timeout_s": 60}, {"id": ..., "kernel": ...}]}.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cosched::launcher {

struct WorkloadTask {
  std::string id;
  std::string kernel;                 // STREAM task when set
  std::uint64_t footprint_bytes = 0;  // total bytes over the kernel's arrays
  unsigned passes = 1;                // kernel passes (the instance's time covers all of them)
  std::vector<std::string> command;   // any program, when set (placeholders allowed)
  std::optional<double> timeout_s;    // per-task timeout, overrides --timeout
  [[nodiscard]] bool is_stream() const noexcept { return !kernel.empty(); }
};

struct Workload {
  std::string source;
  std::vector<WorkloadTask> tasks;
  // The task with this id; throws InputError naming the source when there is none.
  [[nodiscard]] const WorkloadTask& find(const std::string& id) const;
};

// Reads a workload (.json as above; .toml through the profiler's reader, with `platform_path` for footprints
// given as a percentage of the fast tier). Throws InputError naming the file and the task.
[[nodiscard]] Workload load_workload(const std::filesystem::path& path,
                                     const std::filesystem::path& platform_path = {});

// The id `cosched instance` gives the k-th task of a kernel and footprint: "triad-256MiB-3".
[[nodiscard]] std::string stream_task_id(const std::string& kernel, std::uint64_t footprint_bytes, unsigned k);

}  // namespace cosched::launcher
