#pragma once
// The journal's ONE schema: every event a launch records, as a type, with one writer (to_json) and one reader
// (event_from_json) that validates what it reads — field types, known statuses, finite non-negative times. The
// line format, the replay and the report all go through these types; no other code knows a journal key.
// Field meanings: docs/formats.md, "Journal (JSON lines)".
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cosched/sim/engine.hpp"

namespace cosched::launcher {

// How a segment (one launch, or one resume) ended.
enum class BatchStatus { ok, failed, stopped, interrupted };
[[nodiscard]] std::string_view to_string(BatchStatus status) noexcept;
[[nodiscard]] std::optional<BatchStatus> parse_batch_status(std::string_view text) noexcept;

struct ResourceCapacity {
  std::string name;
  int capacity = 0;
};

// One task of the plan as the header records it.
struct PlannedEntry {
  std::string task;
  std::vector<int> alloc;
  double planned_start = 0.0;
  double predicted_duration = 0.0;
  double predicted_start = 0.0;  // simulated clock, same policy
  std::optional<int> pack;
};

// What one input of the batch was: a digest of its canonical form and a summary in words (for error messages:
// "what the journal was written for"). See journal/inputs.hpp.
struct InputStamp {
  std::string digest;   // "fnv1a64:<16 hex digits>"
  std::string summary;  // "algorithm t-list-lpt, 6 tasks on cores=2, fast_chunks=20"
  friend bool operator==(const InputStamp&, const InputStamp&) = default;
};

struct BatchInputs {
  InputStamp schedule;  // the plan: algorithm, resources and capacities, tasks with allocations and times
  InputStamp workload;  // what each planned task runs
  InputStamp platform;  // cores, fast chunks, chunk bytes, tier backend, emulation ratio
};

// The Slurm job step a segment ran in (SLURMD_NODENAME, SLURM_JOB_ID, SLURM_STEP_ID of its environment), for
// `cosched launch --slurm` (docs/cluster.md). A field Slurm did not set is "".
struct SlurmStep {
  std::string node;
  std::string job_id;
  std::string step_id;
  friend bool operator==(const SlurmStep&, const SlurmStep&) = default;
};

// Memory touched and freed just before the segment's first tasks started, so that they find it resident
// (platform/host_memory.hpp): on a VM whose hypervisor takes back free memory.
struct MemoryWarmUp {
  std::uint64_t bytes = 0;
  double seconds = 0.0;
  std::string reason;
};

// The interval the batch's makespan was predicted to fall in (issue 39: `cosched run` and the demo state one), as
// the prediction of the whole batch it was made for: `coverage` of the launches should fall in [low_s, high_s].
struct PredictedInterval {
  double low_s = 0.0;
  double high_s = 0.0;
  double coverage = 0.8;  // in (0, 1)
  friend bool operator==(const PredictedInterval&, const PredictedInterval&) = default;
};

struct BatchStart {
  std::string time_utc;
  std::string host;
  // The launching process (the journal's lock holder while the segment runs); nullopt in journals written before
  // it was recorded.
  std::optional<int> launcher_pid;
  std::string clock = "wall";
  std::string policy;
  std::string algorithm;
  std::string schedule;  // where the schedule came from (a path, or words)
  std::string workload;
  std::string label;
  std::string tier_backend;
  bool emulated = false;
  std::optional<double> emulation_ratio;  // emulated backends only
  double chunk_bytes = 0.0;
  std::vector<ResourceCapacity> resources;
  double lower_bound = 0.0;
  double planned_makespan = 0.0;
  double predicted_makespan = 0.0;  // the paper model (simulated clock)
  // The contention-aware prediction (contention clock); written null, and read as nullopt, when the plan had no
  // bandwidth model — and in journals written before it existed.
  std::optional<double> predicted_makespan_contention;
  // Absent when the launch was given none (`cosched launch`; journals written before it existed).
  std::optional<PredictedInterval> predicted_interval;
  bool fail_fast = false;
  std::optional<double> timeout_s;
  bool resumed = false;
  std::vector<std::string> already_completed;
  std::size_t journal_repaired_bytes = 0;
  std::vector<PlannedEntry> plan;  // the tasks this segment runs
  // Digests of the full batch's inputs; --resume refuses a journal whose inputs differ. Absent in journals written
  // before cosched stamped them (those cannot be resumed, only reported).
  std::optional<BatchInputs> inputs;
  // Written null, and read as nullopt, outside Slurm (and in journals written before it existed).
  std::optional<SlurmStep> slurm;
  // Absent when there was none (and in journals written before it existed).
  std::optional<MemoryWarmUp> memory_warm_up;
};

struct TaskStart {
  std::string task;
  std::string time_utc;
  double t = 0.0;  // seconds since the segment began
  double planned_start = 0.0;
  double predicted_start = 0.0;
  // The task's start and end on the contention clock; only when the plan had a bandwidth model.
  std::optional<double> predicted_contention_start;
  std::optional<double> predicted_contention_end;
  std::vector<int> alloc;
  std::vector<unsigned> cores;
  std::vector<unsigned> pus;
  std::size_t fast_chunks = 0;
  std::size_t fast_bytes = 0;
  std::string placement;
  int pid = -1;
  double launch_overhead_s = 0.0;
  std::vector<std::string> argv;
  std::optional<int> pack;
  std::optional<std::string> launch_error;  // it could not start; an end with status failed follows
};

struct TaskEnd {
  std::string task;
  std::string time_utc;
  sim::TaskStatus status = sim::TaskStatus::failed;
  double t = 0.0;
  double actual_start = 0.0;
  double actual_end = 0.0;
  double duration_s = 0.0;
  double planned_start = 0.0;
  double planned_end = 0.0;
  double predicted_duration = 0.0;
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::optional<std::string> message;
};

struct OvercommitRefused {
  std::string task;
  std::string why;
  std::string time_utc;
};

// The launch re-planned the tasks still pending as a result arrived (`cosched run` learning as it goes:
// profiler/launch_replanner.hpp): from here on they start in this order, at these allocations. The plan entries of
// the batch_start stay what was planned; this is what changed and what is now predicted.
struct ReplannedEntry {
  std::string task;
  std::vector<int> alloc;
  std::optional<double> predicted_duration;  // what the re-plan predicts it takes at `alloc` (nullopt: not said)
  bool guessed = false;                      // that prediction is a guess (nothing known of its kind yet)
};

struct Replanned {
  std::string time_utc;
  double t = 0.0;      // seconds since the segment began
  std::string after;   // the task whose end it followed
  std::string reason;  // what was learnt, in words
  std::vector<ReplannedEntry> tasks;  // in their new launch order
  std::optional<double> predicted_rest_s;  // the rest of the launch from `t`, as the re-plan predicts it
};

struct BatchEnd {
  std::string time_utc;
  BatchStatus status = BatchStatus::ok;
  double observed_makespan = 0.0;
  double predicted_makespan = 0.0;
  double lower_bound = 0.0;
  double ratio = 0.0;
  std::size_t tasks_completed = 0;
  std::size_t tasks_failed = 0;
  std::size_t tasks_killed = 0;
  std::size_t tasks_not_started = 0;
  std::size_t overcommit_refusals = 0;
};

using JournalEvent = std::variant<BatchStart, TaskStart, TaskEnd, OvercommitRefused, BatchEnd, Replanned>;

// "batch_start", "start", "end", "overcommit_refused", "batch_end", "replan".
[[nodiscard]] std::string_view event_name(const JournalEvent& event) noexcept;

// The event as one JSON object, "event" naming its kind. Every field is written.
[[nodiscard]] nlohmann::json to_json(const JournalEvent& event);
// A batch_start's "inputs": {"schedule": {"digest", "summary"}, "workload": ..., "platform": ...} (also what
// `cosched report --json` prints).
[[nodiscard]] nlohmann::json to_json(const BatchInputs& inputs);

// A batch_start's "slurm": {"node", "job_id", "step_id"} (also what `cosched report --json` prints).
[[nodiscard]] nlohmann::json to_json(const SlurmStep& step);

// The event a JSON object holds. Required: "event" (a known kind), and "task" (start, end, overcommit_refused; each
// of a replan's "tasks"), "t" (start, end, replan), "after" (replan), "status" (end, batch_end); every other field
// may be missing (its default) but, when present, must have its type — strings, booleans, integers, finite
// non-negative times. Unknown fields are ignored. Throws InputError(where, ...) naming the field.
[[nodiscard]] JournalEvent event_from_json(const nlohmann::json& json, const std::string& where);

}  // namespace cosched::launcher
