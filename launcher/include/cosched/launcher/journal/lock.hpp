#pragma once
// One writer per journal. A launch holds an exclusive flock(2) on the journal file itself, through one open
// descriptor, from before it reads the journal (--resume, the "already has a run" check) until its last line is
// written. A kernel lock, not a lock file: it goes when the descriptor goes, however the process ends (SIGKILL
// included), so a killed launcher never leaves a stale lock behind. A second launch of the same journal — another
// `launch`, a `--resume`, `online --launch`, a Slurm step of the same node — is refused at once, naming the holder.
//
// Everything the holder reads or writes goes through the locked descriptor: on a network file system flock is
// emulated with POSIX record locks, which a process loses when it closes *any* descriptor of the file.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace cosched::launcher {

class JournalLock {
 public:
  // Opens `path` (creating it, empty, when missing) and locks it. Throws UsageError when another process holds it
  // — one line naming the holder: its pid and host from this host's lock table (/proc/locks), else the host and
  // launcher pid of the journal's unfinished last segment; PlatformError when the file cannot be opened or the
  // file system cannot lock (the journal would then have no guard: put it on a local file system).
  [[nodiscard]] static JournalLock acquire(const std::filesystem::path& path);

  JournalLock(JournalLock&& other) noexcept;
  JournalLock& operator=(JournalLock&&) = delete;
  JournalLock(const JournalLock&) = delete;
  JournalLock& operator=(const JournalLock&) = delete;
  // Releases the lock. A journal this lock created and nobody wrote to is removed: a launch refused after the
  // lock was taken (a bad log folder, a plan that waits too long) leaves no empty journal behind.
  ~JournalLock();

  // The journal's whole text, read through the locked descriptor.
  [[nodiscard]] std::string read_all() const;
  // Empties the journal (--force: a new run replaces it) without letting the lock go.
  void truncate();
  // The run writes to it: keep the file whatever happens next.
  void keep() noexcept { keep_ = true; }

  [[nodiscard]] int fd() const noexcept { return fd_; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  JournalLock(std::filesystem::path path, int fd, bool created) : path_(std::move(path)), fd_(fd), created_(created) {}

  std::filesystem::path path_;
  int fd_ = -1;
  bool created_ = false;  // this lock created the file
  bool keep_ = false;
};

// Who holds an exclusive flock on the file open as `fd`, from this host's lock table (/proc/locks): its pid, or
// nullopt when no process of this host holds one (a holder on another host of a network file system).
[[nodiscard]] std::optional<pid_t> flock_holder(int fd);

}  // namespace cosched::launcher
