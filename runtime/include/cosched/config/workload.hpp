#pragma once
// A workload: the tasks to schedule and what each one runs — the one schema behind configs/workloads/*.toml, the
// JSON workloads of `cosched launch` and the per-task fields of the Instance JSON (docs/formats.md, "Workload").
//   - a STREAM task: a kernel over a footprint (bytes over all its arrays), `passes` times;
//   - a command: argv, no shell, with the placeholders {threads}, {cpuset}, {cores}, {fast_bytes}, and {work} when
//     it says how its work scales ("work": its step or iteration count in the batch, and smaller ones it can be
//     profiled at: issue 39's short runs);
//   - either may carry a timeout.
// Readers:
//   - TOML (kernel x footprint x count):
//       name = "fig3-mix"
//       [[tasks]]
//       kernel = "triad"
//       footprint_mib = 256          # or footprint_percent_of_fast = 60 (of the platform's fast capacity)
//       count = 10                   # optional (1)
//       passes = 20                  # optional (1): kernel passes per task; times scale with it
//       release_s = 2.5              # optional (0): when the first copy arrives in an online run
//       release_every_s = 1          # optional (0): copy k arrives at release_s + k * release_every_s
//       user = "alice"               # optional: whose tasks they are (an identifier)
//     expanded to tasks whose ids follow stream_task_id, k counting per (kernel, footprint) in file order;
//   - JSON: {"name": ..., "tasks": [{"id": "t0", "command": ["prog", "{threads}"], "timeout_s": 60,
//                                     "profile": "prog", "footprint_bytes": 1048576,    (both optional)
//                                     "env": {"OMP_PROC_BIND": "true"},                  (optional)
//                                     "work": {"value": 1000, "profile": [10, 20]}},     (optional: {work})
//                                    {"id": "s0", "kernel": "triad", "footprint_bytes": 67108864, "passes": 3}]}
//     An Instance JSON whose tasks carry those fields (what `cosched instance` writes) is read by
//     cli::read_workload: sched's Instance parser, then task_from_json on each task's attributes.
// Writer: to_json (the JSON form above). Everything is validated where it is read: ids are safe file names
// (check_identifier), numbers finite and in range, placeholders known; errors name the file, the line (TOML) or
// the entry (JSON), and the task.
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/config/platform.hpp"

namespace cosched::config {

inline constexpr std::uint64_t kMaxFootprintBytes = 1ULL << 50;  // 1 PiB
inline constexpr double kMaxFootprintPercentOfFast = 1e4;
inline constexpr unsigned kMaxTaskCount = 10'000;   // per TOML entry
inline constexpr std::size_t kMaxWorkloadTasks = 10'000;  // per workload (a node runs them one after another)
inline constexpr unsigned kMaxPasses = 1'000'000;
inline constexpr std::size_t kMaxCommandArguments = 4096;
inline constexpr double kMaxWork = 1e15;            // a step count, a size: any positive amount up to this
inline constexpr std::size_t kMaxProfilingWork = 4;  // smaller amounts a task may be profiled at

// How a command's work scales (issue 39): `value`, the amount it runs in the batch — a step or iteration count, an
// input size — substituted for {work} when it is launched, and `profile`, smaller amounts (ascending, each below
// `value`) it can be profiled at: its time is then predicted at `value` from a fixed cost plus a cost per unit of
// work, as a STREAM task's is from its passes. Tasks that differ only in `value` are one kind of task: what is
// measured of one serves the others.
struct WorkScale {
  double value = 1.0;
  std::vector<double> profile;
  friend bool operator==(const WorkScale&, const WorkScale&) = default;
};

struct WorkloadTask {
  std::string id;
  std::string kernel;                 // a STREAM task when set
  std::uint64_t footprint_bytes = 0;  // STREAM: total bytes over the kernel's arrays
  unsigned passes = 1;                // STREAM: kernel passes (the instance's time covers all of them)
  std::vector<std::string> command;   // a program, when set (placeholders allowed)
  std::optional<double> timeout_s;    // overrides the launch's --timeout
  double release_s = 0.0;             // online runs: seconds after the start when the task arrives, in [0, kMaxSeconds]
  std::string user{};                 // online runs: whose task it is ("" unknown; else an identifier)
  // A command's profiled name (`cosched profile --command ... --name NAME`): its times in an instance come from the
  // profile rows of "command:NAME" at its footprint_bytes (0 when not given). "" for STREAM tasks.
  std::string profile{};
  // A command's own environment variables, NAME=VALUE sorted by name, set on top of the launcher's (and under
  // what its placement sets, e.g. autohbw's LD_PRELOAD). Give it the env the command was profiled with
  // ([[commands]] env): the instance's times are only those of the same program under the same environment.
  std::vector<std::string> environment{};
  std::optional<WorkScale> work{};  // a command whose argv holds {work}: how its work scales
  [[nodiscard]] bool is_stream() const noexcept { return !kernel.empty(); }
  friend bool operator==(const WorkloadTask&, const WorkloadTask&) = default;
};

struct Workload {
  std::string name;
  std::string description;
  std::string source;  // the file it came from
  std::vector<WorkloadTask> tasks;
  // The task with this id; throws InputError naming the source when there is none.
  [[nodiscard]] const WorkloadTask& find(const std::string& id) const;
};

// THE task-id rule: the k-th STREAM task (k from 0) of a kernel and footprint is "<kernel>-<footprint MiB>MiB-<k>",
// e.g. "triad-256MiB-3" or "ddot-0.5MiB-0". Schedules name tasks by these ids; the launcher maps them back.
[[nodiscard]] std::string stream_task_id(std::string_view kernel, std::uint64_t footprint_bytes, unsigned k);

// `count` STREAM tasks of one kernel and footprint, appended to `workload` with ids by stream_task_id, k
// continuing after the tasks of the same kernel and footprint already there. Throws InputError (at `where`) for
// a kernel that is not an identifier, a footprint, count or passes out of range, or too many tasks.
struct StreamTaskGroup {
  std::string kernel;
  std::uint64_t footprint_bytes = 0;
  unsigned count = 1;
  unsigned passes = 1;
};
void add_stream_tasks(Workload& workload, const StreamTaskGroup& group, const std::string& where = "");

// The placeholders a command may use; the launcher substitutes each for the task's grant.
[[nodiscard]] std::span<const std::string_view> command_placeholders() noexcept;  // "{threads}", ...
// The placeholder of a task's amount of work (WorkScale), substituted before the grant's.
inline constexpr std::string_view kWorkPlaceholder = "{work}";
// Throws InputError(where, ...) naming the argument for an empty argv or program, a NUL byte, or a
// {placeholder} that is not one of command_placeholders() (nor {work} when `work` allows it). A {word} is a
// placeholder when word is [A-Za-z_][A-Za-z0-9_]*; other braces ("{print $1}", "{}") are left alone.
void check_command(const std::vector<std::string>& argv, const std::string& where, bool work = false);
// `argv` with {work} replaced by `amount` (its shortest decimal form: 1000, 12.5).
[[nodiscard]] std::vector<std::string> command_at_work(const std::vector<std::string>& argv, double amount);
// A command's environment, from a workload's "env" or a sweep file's env table, as NAME=VALUE entries in the
// order given. Throws InputError(where, ...) naming the entry unless each NAME is a shell variable name
// ([A-Za-z_][A-Za-z0-9_]*; checked before joining, so a name "A=B" is refused, not read as A="B=...") and
// neither holds a NUL byte.
[[nodiscard]] std::vector<std::string> environment_entries(
    const std::vector<std::pair<std::string, std::string>>& variables, const std::string& where);

// How to read workload files. `platform` is needed for footprint_percent_of_fast (a TOML entry without it is an
// error naming the key); `known_kernels`, when not empty, are the kernels a STREAM task may name (the caller's
// kernel table; config does not link the kernels).
struct WorkloadReadOptions {
  std::optional<PlatformConfig> platform;
  std::vector<std::string> known_kernels;
};

// Reads a workload: ".toml" as TOML, anything else as JSON. Throws InputError naming the file and the task.
[[nodiscard]] Workload load_workload(const std::filesystem::path& path, const WorkloadReadOptions& options = {});
[[nodiscard]] Workload parse_workload_toml(std::string_view text, const std::string& source,
                                           const WorkloadReadOptions& options = {});
// JSON workloads only: an Instance JSON (a root with "resources") is refused, naming the composed reader — its
// tasks are read by sched's one Instance parser, then task_from_json on each task's attributes
// (exec/workload_file.hpp; config does not depend on sched).
[[nodiscard]] Workload parse_workload_json(std::string_view text, const std::string& source,
                                           const WorkloadReadOptions& options = {});
// The same from JSON already parsed (parse_json_text), for a reader that first looks at what a file holds.
[[nodiscard]] Workload workload_from_json(const nlohmann::json& root, const std::string& source,
                                          const WorkloadReadOptions& options = {});
// True for an Instance JSON (an object with "resources"): what parse_workload_json refuses.
[[nodiscard]] bool is_instance_json(const nlohmann::json& root);
// A workload holds 1..kMaxWorkloadTasks tasks; throws InputError(source) otherwise.
void check_task_count(std::size_t count, const std::string& source);

// One task as JSON: {"id", "kernel", "footprint_bytes", "passes"} or {"id", "command"} (+ "footprint_bytes" and
// "profile" when set), plus "timeout_s" when
// set, "release_s" when not 0 and "user" when not empty (so files without them read and write as before). The
// Instance JSON carries the same fields per task (online reads "release_s" and "user" from there).
void to_json(nlohmann::json& json, const WorkloadTask& task);
// {"name", "description" (when set), "tasks": [...]} — parse_workload_json reads it back.
void to_json(nlohmann::json& json, const Workload& workload);

// Reads one task object (as to_json writes it) and validates it; `where` locates it ("w.json: tasks[3]").
// `other_keys_allowed`: keys other than the task's are left to the caller (the Instance JSON's "times") instead of
// being refused.
struct TaskJsonRules {
  std::vector<std::string> known_kernels;  // empty: any identifier
  bool other_keys_allowed = false;
};
[[nodiscard]] WorkloadTask task_from_json(const nlohmann::json& entry, const std::string& where,
                                          const TaskJsonRules& rules = {});
// True when a task object says what it runs ("kernel" or "command"); an Instance task may not.
[[nodiscard]] bool has_task_fields(const nlohmann::json& entry);
// For nlohmann's get<WorkloadTask>(): task_from_json with the default rules.
void from_json(const nlohmann::json& json, WorkloadTask& task);

}  // namespace cosched::config
