#pragma once
// The run journal: an append-only JSON-lines file, one event per line, flushed and fsynced per event so that a
// launcher killed at any instant (SIGKILL included) leaves every completed event on disk. At worst the last line
// is cut short; the reader reports and ignores it, and a writer reopening the file cuts it off before appending.
// Each line is one typed event (journal/events.hpp); this file only knows lines.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/launcher/journal/events.hpp"

namespace cosched::launcher {

class JournalWriter {
 public:
  // Creates the file or opens it for appending. A partial last line (no trailing newline: the previous writer
  // died mid-write) is cut off first; repaired_bytes() says how many bytes went. Throws PlatformError.
  explicit JournalWriter(const std::filesystem::path& path);
  ~JournalWriter();
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;

  // Writes `event` as one line (to_json) and fsyncs.
  void append(const JournalEvent& event);

  [[nodiscard]] std::size_t repaired_bytes() const noexcept { return repaired_bytes_; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::size_t repaired_bytes_ = 0;
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
