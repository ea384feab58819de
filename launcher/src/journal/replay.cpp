#include "cosched/launcher/journal/replay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <variant>

#include "cosched/common/error.hpp"

namespace cosched::launcher {

namespace {

// Lines of one task's events within the current segment.
struct SegmentTask {
  std::size_t start_line = 0;
  std::size_t end_line = 0;  // 0: running
};

class Replayer {
 public:
  explicit Replayer(const JournalContents& contents) : contents_(contents) {
    replay_.source = contents.source;
    replay_.truncated_tail = contents.truncated_tail;
    replay_.truncated_line = contents.truncated_line;
  }

  JournalReplay run() && {
    for (const JournalLine& line : contents_.events) {
      line_ = line.line;
      std::visit([this](const auto& event) { on(event); }, line.event);
    }
    if (replay_.segments.empty()) {
      // An empty file says so (as `launch --resume` does), not that it is some other kind of file.
      const bool empty = contents_.events.empty() && !contents_.truncated_tail;
      throw InputError(contents_.source, empty ? "is empty: it holds no event (no batch_start: not a cosched journal)"
                                               : "no batch_start: not a cosched journal");
    }
    return std::move(replay_);
  }

 private:
  [[nodiscard]] std::string here() const { return fmt::format("{}:{}", contents_.source, line_); }

  void on(const BatchStart& header) {
    if (replay_.segments.empty()) {
      for (const PlannedEntry& entry : header.plan) task(entry.task).planned = entry;
    }
    replay_.segments.push_back({header, line_, std::nullopt, 0.0});
    in_segment_.clear();
    segment_open_ = true;
  }

  void on(const TaskStart& start) {
    open_segment("start");
    auto& seen = in_segment_[start.task];
    if (seen.start_line != 0) {
      throw InputError(here(), fmt::format("task \"{}\" starts again in the segment where it {} at line {}",
                                           start.task, seen.end_line != 0 ? "ended" : "started",
                                           seen.end_line != 0 ? seen.end_line : seen.start_line));
    }
    TaskReplay& history = task(start.task);
    if (history.completed()) {
      throw InputError(here(), fmt::format("task \"{}\" starts again although it completed ok in segment {}",
                                           start.task, history.segment + 1));
    }
    seen.start_line = line_;
    // A re-plan holds for the launch that made it: a resumed launch runs the plan as made.
    const auto replanned = replanned_in_.find(start.task);
    if (replanned == replanned_in_.end() || replanned->second != replay_.segments.size() - 1) history.replanned.reset();
    history.start = start;
    history.end.reset();
    history.segment = replay_.segments.size() - 1;
    ++history.runs;
    note_time(start.t);
  }

  void on(const TaskEnd& end) {
    open_segment("end");
    const auto seen = in_segment_.find(end.task);
    if (seen == in_segment_.end()) {
      throw InputError(here(), fmt::format("end of task \"{}\", which never started in this segment", end.task));
    }
    if (seen->second.end_line != 0) {
      throw InputError(here(), fmt::format("duplicate end of task \"{}\" (it ended at line {})", end.task,
                                           seen->second.end_line));
    }
    seen->second.end_line = line_;
    task(end.task).end = end;
    note_time(end.t);
  }

  void on(const OvercommitRefused& /*refusal*/) { open_segment("overcommit_refused"); }

  void on(const Replanned& replan) {
    open_segment("replan");
    const auto after = in_segment_.find(replan.after);
    if (after == in_segment_.end() || after->second.end_line == 0) {
      throw InputError(here(),
                       fmt::format("replan after task \"{}\", which has not ended in this segment", replan.after));
    }
    for (const ReplannedEntry& entry : replan.tasks) {
      const auto seen = in_segment_.find(entry.task);
      if (seen != in_segment_.end()) {
        throw InputError(here(), fmt::format("replan of task \"{}\", which started at line {}: only pending tasks are "
                                             "re-planned", entry.task, seen->second.start_line));
      }
      TaskReplay& history = task(entry.task);
      history.replanned = entry;
      replanned_in_[entry.task] = replay_.segments.size() - 1;
    }
    replay_.segments.back().replans.push_back(replan);
    note_time(replan.t);
  }

  void on(const BatchEnd& end) {
    open_segment("batch_end");
    for (const auto& [id, seen] : in_segment_) {
      if (seen.end_line == 0) {
        throw InputError(here(), fmt::format("batch_end while task \"{}\" (started at line {}) is still running", id,
                                             seen.start_line));
      }
    }
    replay_.segments.back().end = end;
    segment_open_ = false;
    closed_at_ = line_;
  }

  void open_segment(const char* event) const {
    if (replay_.segments.empty()) throw InputError(here(), fmt::format("\"{}\" before any batch_start", event));
    if (!segment_open_) {
      throw InputError(here(), fmt::format("\"{}\" after the batch_end of line {} (a new segment needs a batch_start)",
                                           event, closed_at_));
    }
  }

  void note_time(double t) {
    JournalSegment& segment = replay_.segments.back();
    segment.last_event_t = std::max(segment.last_event_t, t);
  }

  TaskReplay& task(const std::string& id) {
    const auto [found, inserted] = index_.try_emplace(id, replay_.tasks.size());
    if (inserted) {
      TaskReplay entry;
      entry.id = id;
      replay_.tasks.push_back(std::move(entry));
    }
    return replay_.tasks[found->second];
  }

  const JournalContents& contents_;
  JournalReplay replay_;
  std::map<std::string, std::size_t> index_;  // id -> position in replay_.tasks
  std::map<std::string, SegmentTask> in_segment_;
  std::map<std::string, std::size_t> replanned_in_;  // id -> the segment of its last re-plan
  bool segment_open_ = false;
  std::size_t closed_at_ = 0;
  std::size_t line_ = 0;
};

}  // namespace

std::vector<std::string> JournalReplay::completed_ids() const {
  std::vector<std::string> ids;
  for (const TaskReplay& task : tasks) {
    if (task.completed()) ids.push_back(task.id);
  }
  return ids;
}

double JournalReplay::observed_makespan() const noexcept {
  double total = 0.0;
  for (const JournalSegment& segment : segments) total += segment.observed_makespan();
  return total;
}

JournalReplay replay_journal(const JournalContents& contents) { return Replayer(contents).run(); }

JournalReplay replay_journal(const std::filesystem::path& path) { return replay_journal(read_journal(path)); }

}  // namespace cosched::launcher
