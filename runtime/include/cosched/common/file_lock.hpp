#pragma once
// An exclusive lock on a file that several processes share a folder through (the profile cache): flock(2), the
// kernel's advisory lock, which goes with its holder — a process that ends, SIGKILL included, releases it, so a
// crashed holder never leaves a folder locked. The lock file holds a note naming its holder (pid, host, since
// when), read by whoever has to wait, so that a wait is never silent.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace cosched {

class FileLock {
 public:
  // Locks `path` (created, mode 0644, when missing; its folder must exist). When another process holds it,
  // `waiting` is called once with that holder's note before this one blocks until it is released. Throws
  // PlatformError naming the call when the file cannot be opened or locked.
  [[nodiscard]] static FileLock acquire(const std::filesystem::path& path,
                                        const std::function<void(const std::string& holder)>& waiting);
  // Locks `path` without waiting: nullopt when another process holds it, its note then in `holder`. A file its
  // holder removed on leaving (between our open and our lock) is opened again, so the lock taken is always on the
  // file the path names. Throws PlatformError as acquire does; a file this call made is then removed (a full disk
  // that refuses the note leaves no empty lock file behind).
  [[nodiscard]] static std::optional<FileLock> try_acquire(const std::filesystem::path& path, std::string& holder);
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();  // releases the lock

 private:
  explicit FileLock(int fd) noexcept : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace cosched
