#include "cosched/common/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
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
  // The note for whoever waits next: ours, written whole over the last holder's.
  const std::string note = fmt::format("pid {} on {} since {}\n", ::getpid(), host_name(),
                                       iso8601_utc(std::chrono::system_clock::now()));
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, note.data(), note.size(), 0) != static_cast<ssize_t>(note.size())) {
    throw PlatformError("write", path.string(), errno);
  }
  return lock;
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
