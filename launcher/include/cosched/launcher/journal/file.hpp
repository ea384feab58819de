#pragma once
// The run journal: an append-only JSON-lines file, one event per line. Every line is written with one write(2), so
// a launcher killed at any instant (SIGKILL included) leaves every line it wrote in the page cache and so on disk,
// at worst the last one cut short; the reader reports and ignores that one, and a writer reopening the file cuts it
// off before appending. Lines are fsynced before the run goes on: every event but a task's start at once; a start
// at the next line that is (a task's end, the batch's end), so the start of a task is durable before its end is
// — an fsync is a disk round trip, kept off the path from one task start to the next (docs/launcher.md).
// Each line is one typed event (journal/events.hpp); this file only knows lines.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/launcher/journal/events.hpp"
#include "cosched/launcher/journal/lock.hpp"

namespace cosched::launcher {

class JournalWriter {
 public:
  // Appends to the journal `lock` holds, keeping the lock until the writer goes. A partial last line (no trailing
  // newline: the previous writer died mid-write) is cut off first; repaired_bytes() says how many bytes went.
  // Throws PlatformError.
  explicit JournalWriter(JournalLock lock);
  // Locks `path` (JournalLock::acquire: UsageError when another process writes it) and appends to it.
  explicit JournalWriter(const std::filesystem::path& path);
  ~JournalWriter();
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;

  // Writes `event` as one line (to_json); fsyncs it, except a task's start, which is fsynced with the next line
  // that is (see above) or when the writer goes.
  void append(const JournalEvent& event);

  [[nodiscard]] std::size_t repaired_bytes() const noexcept { return repaired_bytes_; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return lock_.path(); }

 private:
  void sync();

  JournalLock lock_;
  std::size_t repaired_bytes_ = 0;
  bool unsynced_ = false;  // lines written since the last fsync
};

struct JournalLine {
  std::size_t line = 0;  // 1-based line number in the file
  JournalEvent event;
};

struct JournalContents {
  std::string source;               // the file, for messages ("run.jsonl:7: ...")
  std::vector<JournalLine> events;  // every complete line, in file order
  // The last line when it was cut short (no newline and not valid JSON), with its 1-based line number.
  std::optional<std::string> truncated_tail;
  std::size_t truncated_line = 0;
};

// Reads a journal: every line through event_from_json. Throws InputError ("file:line: ...") for a malformed line
// that is not the last one, or a line that is not a valid event (wrong field type, unknown event or status).
// It does not check that the events make sense together: replay_journal (journal/replay.hpp) does.
[[nodiscard]] JournalContents read_journal(const std::filesystem::path& path);

// The same from the journal's text; `source` names it in messages.
[[nodiscard]] JournalContents parse_journal(const std::string& text, const std::string& source);

}  // namespace cosched::launcher
