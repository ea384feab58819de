#include "cosched/launcher/journal/lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/launcher/journal/file.hpp"
#include "cosched/launcher/journal/recorder.hpp"

namespace cosched::launcher {

namespace {

// The process's program name (/proc/<pid>/comm: "cosched"), "" when it cannot be read.
std::string program_of(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/comm", pid));
  std::string name;
  std::getline(in, name);
  return name;
}

// Whole text of the file open as `fd`, read with pread (the descriptor's offset is left alone). A device given as
// the journal (/dev/null, /dev/full) holds no run: "" (reading /dev/full would never end).
std::string read_descriptor(int fd, const std::filesystem::path& path) {
  std::string text;
  struct stat file {};
  if (::fstat(fd, &file) != 0) throw PlatformError("fstat", "journal " + path.string(), errno);
  if (!S_ISREG(file.st_mode)) return text;
  char buffer[1 << 16];
  off_t offset = 0;
  while (true) {
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw PlatformError("pread", "cannot read journal " + path.string(), errno);
    }
    if (n == 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
    offset += n;
  }
}

// Who holds the journal, in words: from this host's lock table when the holder is here, else from the journal's
// unfinished last segment (a holder on another host of a network file system), else as little as is known.
std::string describe_holder(int fd, const std::filesystem::path& path) {
  if (const auto pid = flock_holder(fd)) {
    const std::string program = program_of(*pid);
    return fmt::format("pid {}{} on host {} holds it", *pid, program.empty() ? "" : " (" + program + ")",
                       host_name());
  }
  try {
    const JournalContents contents = parse_journal(read_descriptor(fd, path), path.string());
    const BatchStart* last = nullptr;
    bool ended = false;
    for (const auto& line : contents.events) {
      if (const auto* start = std::get_if<BatchStart>(&line.event)) {
        last = start;
        ended = false;
      } else if (std::holds_alternative<BatchEnd>(line.event)) {
        ended = true;
      }
    }
    if (last != nullptr && !ended) {
      return fmt::format("a process of another host holds it; its segment began {} on host {}{}", last->time_utc,
                         last->host, last->launcher_pid ? fmt::format(" (pid {})", *last->launcher_pid) : "");
    }
  } catch (const Error&) {
    // The description is best effort: the refusal itself does not depend on it.
  }
  return "a process of another host holds it (it has not written its segment's header yet)";
}

// Whether a process of this host that is still alive holds the lock: a SIGKILLed launcher's lock outlives it by
// the moment its last child takes to reach exec (the child's copy of the close-on-exec descriptor holds the lock
// until then), and /proc/locks still names the dead launcher, or no process.
bool live_holder(int fd) {
  const auto pid = flock_holder(fd);
  return pid && (::kill(*pid, 0) == 0 || errno == EPERM);
}

// flock(LOCK_EX | LOCK_NB), waiting up to 2 s while the holder is no live process of this host (a launcher that
// died moments ago, or a holder on another host); a live local holder is refused at once. false with errno set
// as flock sets it.
bool lock_unless_held_by_a_live_process(int fd) {
  constexpr int kAttempts = 200;  // 10 ms apart
  for (int attempt = 0;; ++attempt) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
    const int error = errno;
    if (error != EWOULDBLOCK || attempt == kAttempts || live_holder(fd)) {
      errno = error;
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

std::optional<pid_t> flock_holder(int fd) {
  struct stat file {};
  if (::fstat(fd, &file) != 0) return std::nullopt;
  // Lines such as "3: FLOCK  ADVISORY  WRITE 4711 08:01:1234567 0 EOF"; "->" lines are waiters, not holders.
  const std::string wanted = fmt::format("{:02x}:{:02x}:{}", major(file.st_dev), minor(file.st_dev), file.st_ino);
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    std::istringstream words(line);
    std::string number, kind, mode, access, pid, device;
    if (!(words >> number >> kind)) continue;
    if (kind == "->") continue;
    if (!(words >> mode >> access >> pid >> device)) continue;
    if (kind == "FLOCK" && access == "WRITE" && device == wanted) {
      try {
        const long value = std::stol(pid);
        if (value > 0) return static_cast<pid_t>(value);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

JournalLock JournalLock::acquire(const std::filesystem::path& path) {
  // A journal removed and created again between our open and our lock (a refused launch removing the empty file it
  // created) would leave us holding a lock on a file nobody sees: lock, then check that the path still names the
  // locked file, else start over.
  for (int attempt = 0;; ++attempt) {
    bool created = false;
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      created = true;
    } else if (errno == EEXIST) {
      fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    }
    if (fd < 0) {
      if (errno == ENOENT && attempt < 100) continue;  // removed between the two opens
      throw PlatformError("open", "cannot open journal " + path.string(), errno);
    }
    JournalLock lock(path, fd, created);
    if (!lock_unless_held_by_a_live_process(fd)) {
      const int error = errno;
      if (error == EWOULDBLOCK) {
        lock.keep();  // not ours to remove
        throw UsageError(fmt::format("journal {} is in use by another launch: {}; wait for it to end or stop it "
                                     "(a launcher that died released it)",
                                     path.string(), describe_holder(fd, path)));
      }
      throw PlatformError("flock", fmt::format("cannot lock journal {} (its file system does not lock files: put "
                                               "the journal on a local file system)",
                                               path.string()),
                          error);
    }
    struct stat locked {};
    struct stat named {};
    if (::fstat(fd, &locked) != 0) throw PlatformError("fstat", "journal " + path.string(), errno);
    if (::stat(path.c_str(), &named) == 0 && named.st_dev == locked.st_dev && named.st_ino == locked.st_ino) {
      return lock;
    }
    lock.keep();  // a file no longer under this name: nothing to remove
    if (attempt >= 100) throw PlatformError("flock", "journal " + path.string() + " keeps being replaced", EAGAIN);
  }
}

JournalLock::JournalLock(JournalLock&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      created_(other.created_),
      keep_(other.keep_) {}

JournalLock::~JournalLock() {
  if (fd_ < 0) return;
  if (created_ && !keep_) {
    struct stat file {};
    // Removed while still locked: nobody can have written to it in between.
    if (::fstat(fd_, &file) == 0 && file.st_size == 0) ::unlink(path_.c_str());
  }
  ::close(fd_);
}

std::string JournalLock::read_all() const { return read_descriptor(fd_, path_); }

void JournalLock::truncate() {
  if (::ftruncate(fd_, 0) != 0) throw PlatformError("ftruncate", "cannot empty journal " + path_.string(), errno);
}

}  // namespace cosched::launcher
