#include "cosched/common/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <utility>

#include "cosched/common/error.hpp"
#include "cosched/common/host.hpp"
#include "cosched/common/utc_time.hpp"

namespace cosched {

namespace {

std::string note_of(int fd) {
  std::string note(256, '\0');
  const ssize_t got = ::pread(fd, note.data(), note.size(), 0);
  note.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  while (!note.empty() && (note.back() == '\n' || note.back() == '\0')) note.pop_back();
  return note.empty() ? std::string("another process") : note;
}

int lock_retrying(int fd, int operation) {
  int result = 0;
  do {
    result = ::flock(fd, operation);
  } while (result != 0 && errno == EINTR);
  return result;
}

// Our note for whoever waits next, written whole over the last holder's.
void write_note(int fd, const std::filesystem::path& path) {
  const std::string note = fmt::format("pid {} on {} since {}\n", ::getpid(), host_name(),
                                       iso8601_utc(std::chrono::system_clock::now()));
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, note.data(), note.size(), 0) != static_cast<ssize_t>(note.size())) {
    throw PlatformError("write", path.string(), errno);
  }
}

// Opens `path`, made when missing; `created` says whether this call made it (O_EXCL, so that two callers never
// both take it for theirs).
int open_lock_file(const std::filesystem::path& path, bool& created) {
  for (;;) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    created = fd >= 0;
    if (fd >= 0) return fd;
    if (errno != EEXIST) throw PlatformError("open", path.string(), errno);
    fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0) return fd;
    if (errno != ENOENT) throw PlatformError("open", path.string(), errno);  // ENOENT: its holder removed it, again
  }
}

// Whether `path` still names the file open as `fd`.
bool names_open_file(const std::filesystem::path& path, int fd) {
  struct stat open_file {};
  struct stat named {};
  return ::fstat(fd, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 && open_file.st_dev == named.st_dev &&
         open_file.st_ino == named.st_ino;
}

}  // namespace

FileLock FileLock::acquire(const std::filesystem::path& path,
                           const std::function<void(const std::string& holder)>& waiting) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw PlatformError("open", path.string(), errno);
  FileLock lock(fd);
  if (lock_retrying(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw PlatformError("flock", path.string(), errno);
    if (waiting) waiting(note_of(fd));
    if (lock_retrying(fd, LOCK_EX) != 0) throw PlatformError("flock", path.string(), errno);
  }
  write_note(fd, path);
  return lock;
}

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path, std::string& holder) {
  constexpr int kAttempts = 100;
  for (int attempt = 0;; ++attempt) {
    bool created = false;
    const int fd = open_lock_file(path, created);
    FileLock lock(fd);
    if (lock_retrying(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK) throw PlatformError("flock", path.string(), errno);
      holder = note_of(fd);
      return std::nullopt;
    }
    if (names_open_file(path, fd)) {
      try {
        write_note(fd, path);
      } catch (const PlatformError&) {
        // A full disk: the file this call made goes while still locked (whoever opened it meanwhile finds it
        // replaced and opens again), so a refused claim leaves its folder as it found it.
        if (created) ::unlink(path.c_str());
        throw;
      }
      return lock;
    }
    if (attempt == kAttempts) throw PlatformError("flock", path.string() + " keeps being replaced", EAGAIN);
  }
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
}

}  // namespace cosched
