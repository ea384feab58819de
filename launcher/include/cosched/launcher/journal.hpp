#pragma once
// The run journal: an append-only JSON-lines file, one event per line, flushed and fsynced per event so that a
// launcher killed at any instant (SIGKILL included) leaves every completed event on disk. At worst the last line
// is cut short; the reader reports and ignores it, and a writer reopening the file cuts it off before appending.
// Event fields are documented in docs/formats.md ("Journal (JSON lines)"); journal_events.hpp gives them types.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cosched::launcher {

class JournalWriter {
 public:
  // Creates the file or opens it for appending. A partial last line (no trailing newline: the previous writer
  // died mid-write) is cut off first; repaired_bytes() says how many bytes went. Throws PlatformError.
  explicit JournalWriter(const std::filesystem::path& path);
  ~JournalWriter();
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;

  // Writes `event` as one line and fsyncs. The event must be an object with a string "event" (assertion).
  void append(const nlohmann::json& event);

  [[nodiscard]] std::size_t repaired_bytes() const noexcept { return repaired_bytes_; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::size_t repaired_bytes_ = 0;
};

struct JournalContents {
  std::vector<nlohmann::json> events;  // every complete line, in file order
  // The last line when it was cut short (no newline and not valid JSON), with its 1-based line number.
  std::optional<std::string> truncated_tail;
  std::size_t truncated_line = 0;
};

// Reads a journal. Throws InputError ("file:line") for a malformed line that is not the last one, or a line
// without a string "event" field, or a task event ("start"/"end") without a string "task".
[[nodiscard]] JournalContents read_journal(const std::filesystem::path& path);

}  // namespace cosched::launcher
