#include "cosched/launcher/journal/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>

#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"

namespace cosched::launcher {

namespace {

// Bytes after the last '\n' of the open file (the partial line a killed writer may have left).
std::size_t partial_tail_bytes(int fd, const std::filesystem::path& path) {
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size < 0) throw PlatformError("lseek", path.string(), errno);
  constexpr off_t block = 4096;
  char buffer[block];
  off_t end = size;
  while (end > 0) {
    const off_t begin = end > block ? end - block : 0;
    const auto length = static_cast<std::size_t>(end - begin);
    if (::pread(fd, buffer, length, begin) != static_cast<ssize_t>(length)) {
      throw PlatformError("pread", path.string(), errno);
    }
    for (std::size_t i = length; i > 0; --i) {
      if (buffer[i - 1] == '\n') return static_cast<std::size_t>(size - (begin + static_cast<off_t>(i)));
    }
    end = begin;
  }
  return static_cast<std::size_t>(size);
}

void write_all(int fd, const std::string& text, const std::filesystem::path& path) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw PlatformError("write", path.string(), errno);
    }
    written += static_cast<std::size_t>(n);
  }
}

}  // namespace

JournalWriter::JournalWriter(JournalLock lock) : lock_(std::move(lock)) {
  const int fd = lock_.fd();
  const std::filesystem::path& path = lock_.path();
  lock_.keep();  // from here on the file is the run's journal
  repaired_bytes_ = partial_tail_bytes(fd, path);
  if (repaired_bytes_ > 0) {
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (::ftruncate(fd, size - static_cast<off_t>(repaired_bytes_)) != 0) {
      throw PlatformError("ftruncate", "cannot cut the partial last line of " + path.string(), errno);
    }
  }
  // O_APPEND after the repair: every write lands at the end.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_APPEND) != 0) {
    throw PlatformError("fcntl", "cannot set O_APPEND on " + path.string(), errno);
  }
}

JournalWriter::JournalWriter(const std::filesystem::path& path) : JournalWriter(JournalLock::acquire(path)) {}

JournalWriter::~JournalWriter() {
  // The last start lines, if any, before the lock goes (nothing to report a failure to here).
  if (unsynced_) (void)::fsync(lock_.fd());
}

void JournalWriter::sync() {
  if (::fsync(lock_.fd()) != 0) throw PlatformError("fsync", lock_.path().string(), errno);
  unsynced_ = false;
}

void JournalWriter::append(const JournalEvent& event) {
  // One write(2) per line keeps a line whole unless the process dies inside the call.
  write_all(lock_.fd(), to_json(event).dump() + "\n", lock_.path());
  unsynced_ = true;
  if (!std::holds_alternative<TaskStart>(event)) sync();
}

JournalContents read_journal(const std::filesystem::path& path) {
  return parse_journal(read_text_file(path, "journal"), path.string());
}

JournalContents parse_journal(const std::string& text, const std::string& source) {
  JournalContents contents;
  contents.source = source;
  std::size_t line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++line_number;
    const std::size_t newline = text.find('\n', pos);
    const bool complete = newline != std::string::npos;
    const std::string line = text.substr(pos, complete ? newline - pos : std::string::npos);
    pos = complete ? newline + 1 : text.size();
    const std::string where = source + ":" + std::to_string(line_number);
    if (line.empty()) continue;
    const nlohmann::json object = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded()) {
      // Only a last line without its newline may be broken: the writer died while writing it (every line is
      // written with its newline in one write). A complete line that is not JSON (1e999 included) is corrupt.
      if (!complete) {
        contents.truncated_tail = line;
        contents.truncated_line = line_number;
        break;
      }
      // parse_json_text says why, with the byte: a syntax error, or a number that overflows a double (1e999).
      (void)parse_json_text(line, where);
      throw InputError(where, "not valid JSON (only the last line of a journal may be cut short)");
    }
    contents.events.push_back({line_number, event_from_json(object, where)});
  }
  return contents;
}

}  // namespace cosched::launcher
