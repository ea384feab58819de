#pragma once
// Summaries of a journal, for `cosched report` and the demo: makespans (both predictions and the observed one),
// bound, task counts, deviations.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/launcher/journal/replay.hpp"

namespace cosched::launcher {

struct TaskReport {
  std::string id;
  std::string status;  // last "end" status, "" when the task never ended
  double planned_start = 0, planned_end = 0;
  double predicted_start = 0;
  std::optional<double> predicted_contention_start, predicted_contention_end;  // from its last start event
  double observed_start = 0, observed_end = 0;  // within its segment
  std::vector<unsigned> cores;
  double launch_overhead_s = 0;
  std::size_t segment = 0;
  // Where and at what predicted duration a re-plan of the launch moved it before it started (none: as planned).
  std::optional<ReplannedEntry> replanned;
  // Its predicted duration where it ran: the re-plan's when it was re-planned, else the plan's (0: none said).
  [[nodiscard]] double predicted_duration() const noexcept;
};

struct JournalReport {
  std::string algorithm, policy, host, tier_backend;
  bool emulated = false;
  double lower_bound = 0;
  double predicted_makespan = 0;  // of the whole plan (the first segment's header): the paper model
  std::optional<double> predicted_makespan_contention;  // the contention-aware one; nullopt: not recorded
  std::optional<PredictedInterval> predicted_interval;  // the whole batch's, as its first segment stated it
  // The batch's observed makespan; for a resumed batch the sum of its segments' spans (the time the launcher was
  // down between segments is not counted).
  double observed_makespan = 0;
  std::size_t tasks_planned = 0, tasks_completed = 0, tasks_failed = 0, tasks_killed = 0;
  std::size_t segments = 0;
  std::vector<Replanned> replans;  // the re-plans the launch took as results arrived, over all segments, in order
  bool finished = false;         // the last segment has a batch_end
  bool truncated_tail = false;   // the journal's last line was cut short (and ignored)
  double median_launch_overhead_s = 0, max_launch_overhead_s = 0;
  double max_abs_start_deviation_s = 0;  // observed vs predicted start, same policy
  std::vector<TaskReport> tasks;
  // The digests the journal was stamped with (its first batch_start; --resume refuses other inputs), when any.
  std::optional<BatchInputs> inputs;
  // The Slurm step of the last segment (the one that ran or resumed it last); nullopt outside Slurm.
  std::optional<SlurmStep> slurm;
  // The memory warm-ups before the segments' first tasks, added up (bytes, seconds; the first one's reason);
  // nullopt when no segment had one.
  std::optional<MemoryWarmUp> memory_warm_up;
  [[nodiscard]] double ratio() const noexcept {
    return predicted_makespan > 0 ? observed_makespan / predicted_makespan : 0.0;
  }
  // observed / predicted - 1 of each prediction (prediction.hpp); nullopt when there is none.
  [[nodiscard]] std::optional<double> error_paper() const;
  [[nodiscard]] std::optional<double> error_contention() const;
  // Whether the observed makespan fell inside the predicted interval; nullopt without an interval, or when the
  // batch was resumed (its makespan is then the sum of its segments' spans, not the launch predicted).
  [[nodiscard]] std::optional<bool> inside_interval() const;
};

// Observed over predicted duration (the plan's, the paper model's; a re-planned task's re-plan's) of every task
// that ran to an end, split by whether it ran alone or beside another task (overlapping it by more than 1 % of its
// own duration): the contention that isolated profiles cannot see shows in the second list.
struct DurationRatios {
  std::vector<double> alone;
  std::vector<double> corun;
};
[[nodiscard]] DurationRatios duration_ratios(const JournalReport& report);

// The journal's replay (journal/replay.hpp) summarised. Throws InputError (file:line) for a malformed journal
// or one whose events do not make sense together.
[[nodiscard]] JournalReport summarize_journal(const std::filesystem::path& path);
[[nodiscard]] JournalReport summarize_replay(const JournalReplay& replay);
[[nodiscard]] nlohmann::json to_json(const JournalReport& report);
[[nodiscard]] std::string format_report(const JournalReport& report);

// "memory warm-up before the first tasks: 576 MiB touched and freed in 1.62 s (<reason>)\n".
[[nodiscard]] std::string describe_memory_warm_up(const MemoryWarmUp& warm_up);

}  // namespace cosched::launcher
