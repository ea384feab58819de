#pragma once
// The ONE replay of a journal: its segments (one per launch or resume) and where every task stands. `cosched
// report` summarises it and `cosched launch --resume` continues from it, so both read the journal the same way.
// Replaying also checks that the events make sense together; a journal that does not is an InputError naming
// file:line — never a guess.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/launcher/journal/events.hpp"
#include "cosched/launcher/journal/file.hpp"

namespace cosched::launcher {

struct JournalSegment {
  BatchStart header;
  std::size_t header_line = 0;
  std::optional<BatchEnd> end;  // none: the launcher died (or is still running)
  double last_event_t = 0.0;    // the latest task time of the segment
  std::vector<Replanned> replans = {};  // the re-plans the launch took in it (replan events), in order
  // The segment's span: its batch_end's observed makespan, else the latest task time it recorded.
  [[nodiscard]] double observed_makespan() const noexcept { return end ? end->observed_makespan : last_event_t; }
};

// Where one task stands after the whole journal: its plan entry and its last run.
struct TaskReplay {
  std::string id;
  std::optional<PlannedEntry> planned;  // from the first segment's plan (none: the task was not planned there)
  std::optional<TaskStart> start;       // its last start
  std::optional<TaskEnd> end;           // the end of that start; none: it never ended
  std::size_t segment = 0;              // the segment of its last start
  std::size_t runs = 0;                 // how many times it started, over all segments
  // The last re-plan that moved it before its last start, in that start's segment (none: it ran as planned; a
  // resumed launch runs the plan as made).
  std::optional<ReplannedEntry> replanned;
  [[nodiscard]] bool completed() const noexcept { return end && end->status == sim::TaskStatus::ok; }
};

struct JournalReplay {
  std::string source;
  std::vector<JournalSegment> segments;  // at least one
  // Tasks of the first segment's plan in plan order, then tasks that only appear in events, in order of first
  // appearance.
  std::vector<TaskReplay> tasks;
  std::optional<std::string> truncated_tail;  // the cut-short last line, ignored
  std::size_t truncated_line = 0;

  [[nodiscard]] bool finished() const noexcept { return segments.back().end.has_value(); }
  // Ids of the tasks whose last run ended ok: the ones a resume does not run again.
  [[nodiscard]] std::vector<std::string> completed_ids() const;
  // The sum of the segments' spans (time the launcher was down between segments is not counted).
  [[nodiscard]] double observed_makespan() const noexcept;
};

// Replays the events. Throws InputError (file:line) for a journal without a batch_start, a task event before
// the first batch_start or after a batch_end, an end for a task that did not start in that segment, a duplicate
// end, a start after an end (or a second start) of the same task in one segment, a start of a task that had
// already completed, a batch_end while tasks of its segment are still running, and a replan after a task that has
// not ended in its segment or of a task that has already started in it.
[[nodiscard]] JournalReplay replay_journal(const JournalContents& contents);

// read_journal + replay_journal.
[[nodiscard]] JournalReplay replay_journal(const std::filesystem::path& path);

}  // namespace cosched::launcher
