#pragma once
// From a scheduled task and the resources it was granted to the child process that runs it: argv (stream_bench
// with the task's kernel, footprint, passes, cores, fast fraction and tier backend; or the workload's command with
// its placeholders substituted), the PUs to bind, and how its fast-memory share is applied on this backend.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/exec/child_process.hpp"
#include "cosched/platform/grant.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::exec {

// How tasks get their fast share. What the backend can do and how a child is placed on it come from the
// platform's backend table (platform::tier_backend_info): the launcher never branches on a backend's name.
struct TierSetup {
  std::string backend = "none";        // a resolved backend name (platform::tier_backend_names)
  double emulation_ratio = 5.0;        // emulated backends only
  double chunk_bytes = 0.0;            // bytes of one fast chunk
  std::vector<unsigned> fast_nodes;    // backends that place commands: where a command's fast share goes
  std::vector<unsigned> slow_nodes;
  // Commands on backends that place them: the mechanism (platform::command_placement_names()).
  std::string command_placement = "preferred";
  std::size_t autohbw_threshold_bytes = 1 << 20;  // placement autohbw: AUTO_HBW_SIZE
  std::filesystem::path autohbw_library;          // placement autohbw: empty = searched
  // True when a command task can get a fast share here (the backend places commands and has both tiers).
  [[nodiscard]] bool places_commands() const {
    return info().capabilities.places_commands && !fast_nodes.empty() && !slow_nodes.empty();
  }
  // The backend's table entry; throws UsageError for an unknown name.
  [[nodiscard]] const platform::TierBackendInfo& info() const { return platform::tier_backend_info(backend); }
  [[nodiscard]] bool emulated() const { return info().capabilities.emulated; }
  [[nodiscard]] bool has_fast_tier() const { return info().capabilities.has_fast_tier; }
};

// A TierSetup for `backend` ("auto" resolves to this machine's, as platform::resolve_tier_backend_name says) with
// chunks of `chunk_bytes`; a backend that places commands also gets this machine's fast and slow nodes. Throws
// like platform::make_tier_backend for unknown or unusable backends, UsageError for an unknown command placement.
[[nodiscard]] TierSetup make_tier_setup(const std::string& backend, double emulation_ratio, double chunk_bytes,
                                        const std::string& command_placement = "preferred");

// The tier `platform` asks for on this machine (its backend, ratio and chunks, as above), refused with a
// ResourceError when the platform's fast tier is larger than the real one the backend finds here: a plan for it
// would hand out fast memory that is not there, so a run is refused before any work rather than at a task.
[[nodiscard]] TierSetup make_tier_setup(const config::PlatformConfig& platform,
                                        const std::string& command_placement = "preferred");

struct TaskLaunch {
  ChildSpec spec;
  std::size_t fast_bytes = 0;
  std::string placement;  // how the fast share is applied, in words (journaled)
  std::optional<double> applied_fraction;  // commands: the fast share of pages the mechanism holds, when it can say
  std::optional<double> timeout_s;
};

// {threads} = granted cores, {cpuset} = their PUs ("0-3,8"), {cores} = core indices ("0,1"),
// {fast_bytes} = the fast-tier bytes granted. Unknown {names} are left as they are.
[[nodiscard]] std::string substitute_placeholders(const std::string& arg, const platform::Grant& grant, std::size_t fast_bytes);

// Where a task's stdout and stderr go: <folder>/<id>.out and .err for its first attempt, <id>@attempt<k>.out and
// .err for its k-th (a resumed task keeps what its earlier attempts wrote; '@' is not an id character, so no other
// task's files have these names). No folder: /dev/null.
struct TaskLogs {
  TaskLogs() = default;
  TaskLogs(std::filesystem::path folder_, unsigned attempt_ = 1) : folder(std::move(folder_)), attempt(attempt_) {}
  TaskLogs(const char* folder_) : TaskLogs(std::filesystem::path(folder_)) {}
  std::filesystem::path folder;
  unsigned attempt = 1;  // 1 for the first
};

struct TaskLogPaths {
  std::filesystem::path out, err;
};

// The log files of task `id` (checked with check_identifier right here, where it names files: no id can write
// outside the folder). Throws InputError for an unsafe id.
[[nodiscard]] TaskLogPaths task_log_paths(const TaskLogs& logs, const std::string& id);

// `stream_bench` is the stream_bench executable; `logs` says where the task's stdout and stderr go.
[[nodiscard]] TaskLaunch build_task_launch(const config::WorkloadTask& task, const platform::Grant& grant, const TierSetup& tier,
                                           const std::filesystem::path& stream_bench, const TaskLogs& logs);

// The stream_bench executable next to the running cosched binary (build/bin), else in PATH.
[[nodiscard]] std::filesystem::path default_stream_bench_path();

}  // namespace cosched::exec
