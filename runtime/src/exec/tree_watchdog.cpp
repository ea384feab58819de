#include "tree_watchdog.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/exec/process_tree.hpp"

namespace cosched::exec {

namespace detail {

namespace {

// The table of watched process groups, shared between this process and its watchdog (MAP_SHARED): slot i holds the
// process group id of a running task, 0 when free. Running tasks are at most a few per core.
constexpr std::size_t kSlots = 4096;

void sleep_ms(long ms) {
  timespec pause{0, ms * 1'000'000L};
  while (::nanosleep(&pause, &pause) != 0 && errno == EINTR) {
  }
}

// Kills everything under the cgroup folder `root` (cgroup.kill is recursive) and removes its task cgroups, then
// the folder. Async-signal-safe: raw getdents64, no allocation.
void kill_and_remove_cgroups(const char* root) {
  const int dir = ::open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;  // never made: no task used a cgroup
  const int kill_fd = ::openat(dir, "cgroup.kill", O_WRONLY | O_CLOEXEC);
  if (kill_fd >= 0) {
    [[maybe_unused]] const ssize_t n = ::write(kill_fd, "1", 1);
    ::close(kill_fd);
  }
  // Killed processes leave their cgroups as they exit: a cgroup still populated refuses rmdir (EBUSY) for a moment.
  for (int round = 0; round < 500; ++round) {
    bool busy = false;
    alignas(8) char buffer[4096];
    ::lseek(dir, 0, SEEK_SET);
    for (long n; (n = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer)) > 0;) {
      for (long offset = 0; offset < n;) {
        struct Entry {
          std::uint64_t ino;
          std::int64_t off;
          unsigned short reclen;
          unsigned char type;
          char name[1];
        };
        const auto* entry = reinterpret_cast<const Entry*>(buffer + offset);
        offset += entry->reclen;
        if (entry->type != DT_DIR || entry->name[0] == '.') continue;
        if (::unlinkat(dir, entry->name, AT_REMOVEDIR) != 0 && errno == EBUSY) busy = true;
      }
    }
    if (!busy) break;
    sleep_ms(10);
  }
  ::close(dir);
  ::rmdir(root);
}

// The watchdog's life (after fork: async-signal-safe calls only). It reads `alive`, a pipe whose write end only
// the launcher holds, until end-of-file, then kills what the table and the cgroup folder still hold.
[[noreturn]] void run_watchdog(int alive, const volatile pid_t* table, const char* cgroup_root) {
  ::setsid();  // out of the launcher's session and group: a Ctrl-C or a kill of the group does not reach it
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2}) {
    ::sigaction(sig, &ignore, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // Hold nothing of the launcher's open: not its journal (and its lock), not the pipes a caller waits on, not the
  // write end of `alive`.
  if (alive != 3) {
    ::dup2(alive, 3);
    alive = 3;
  }
  const int null = ::open("/dev/null", O_RDWR);
  if (null >= 0) {
    ::dup2(null, STDIN_FILENO);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
  }
  ::syscall(SYS_close_range, 4U, ~0U, 0U);
  ::prctl(PR_SET_NAME, "cosched-watch", 0, 0, 0);
  char byte;
  while (::read(alive, &byte, 1) != 0) {
    // Nothing is ever written: only end-of-file (the launcher is gone) or an interruption comes back.
    if (errno != EINTR) break;
  }
  for (std::size_t i = 0; i < kSlots; ++i) {
    const pid_t group = table[i];
    if (group > 0) ::kill(-group, SIGKILL);
  }
  if (cgroup_root[0] != '\0') kill_and_remove_cgroups(cgroup_root);
  ::_exit(0);
}

struct Watchdog {
  pid_t owner = 0;  // the process this watchdog watches
  pid_t pid = -1;
  int alive = -1;   // the write end of its pipe
  volatile pid_t* table = nullptr;
  std::vector<bool> taken;
};

std::mutex g_mutex;
Watchdog g_watchdog;

// Whether our watchdog still runs (it is our child: a dead one is a zombie until reaped here).
bool alive_locked() {
  return g_watchdog.owner == ::getpid() && g_watchdog.alive >= 0 && ::waitpid(g_watchdog.pid, nullptr, WNOHANG) == 0;
}

// Starts a watchdog for this process; the caller holds g_mutex. The table survives a restart (a watchdog someone
// killed): the groups it lists stay watched.
void start_locked() {
  if (g_watchdog.owner != ::getpid()) {
    // The watchdog of the process this one was forked from: its pipe and table came with the fork. Ours are new
    // (the inherited table stays mapped: it is the other process's).
    if (g_watchdog.alive >= 0) ::close(g_watchdog.alive);
    g_watchdog = {};
    void* table = ::mmap(nullptr, kSlots * sizeof(pid_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) throw PlatformError("mmap", "cannot make the process-tree watchdog's table", errno);
    g_watchdog.table = static_cast<volatile pid_t*>(table);
    g_watchdog.taken.assign(kSlots, false);
    g_watchdog.owner = ::getpid();
  } else if (g_watchdog.alive >= 0) {
    ::close(g_watchdog.alive);  // a dead watchdog's pipe (the process was reaped by alive_locked)
    g_watchdog.alive = -1;
  }
  const auto root = task_cgroup_root();
  const std::string root_text = root ? root->string() : std::string();
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw PlatformError("pipe2", "cannot start the process-tree watchdog", errno);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw PlatformError("fork", "cannot start the process-tree watchdog", error);
  }
  if (pid == 0) run_watchdog(pipe_fds[0], g_watchdog.table, root_text.c_str());
  ::close(pipe_fds[0]);
  g_watchdog.pid = pid;
  g_watchdog.alive = pipe_fds[1];
}

}  // namespace

std::optional<std::filesystem::path> own_cgroup() {
  // "0::/some/path" is the cgroup v2 line of /proc/self/cgroup.
  std::ifstream cgroups("/proc/self/cgroup");
  std::string relative;
  for (std::string line; std::getline(cgroups, line);) {
    if (line.rfind("0::", 0) == 0) relative = line.substr(3);
  }
  if (relative.empty()) return std::nullopt;
  // The cgroup2 mount: field 5 of its /proc/self/mountinfo line is the mount point; after " - " the type.
  std::ifstream mounts("/proc/self/mountinfo");
  for (std::string line; std::getline(mounts, line);) {
    const std::size_t dash = line.find(" - ");
    if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0) continue;
    std::size_t begin = 0;
    for (int field = 0; field < 4; ++field) begin = line.find(' ', begin) + 1;
    const std::string mount_point = line.substr(begin, line.find(' ', begin) - begin);
    return std::filesystem::path(mount_point) / std::filesystem::path(relative).relative_path();
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> task_cgroup_root() {
  const auto own = own_cgroup();
  if (!own) return std::nullopt;
  return *own / fmt::format("cosched-{}", ::getpid());
}

void ensure_watchdog() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (!alive_locked()) start_locked();
}

WatchSlot WatchSlot::reserve() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (!alive_locked()) start_locked();
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (g_watchdog.taken[i]) continue;
    g_watchdog.taken[i] = true;
    g_watchdog.table[i] = 0;
    return WatchSlot(static_cast<int>(i), &g_watchdog.table[i]);
  }
  throw ResourceError(fmt::format("more than {} tasks at once: the process-tree watchdog has no slot left", kSlots));
}

void WatchSlot::watch_own_group() const noexcept {
  if (word_ != nullptr) *word_ = ::getpid();
}

void WatchSlot::release() noexcept {
  if (word_ == nullptr) return;
  *word_ = 0;
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_watchdog.owner == ::getpid()) g_watchdog.taken[static_cast<std::size_t>(index_)] = false;
  word_ = nullptr;
  index_ = -1;
}

}  // namespace detail

void start_tree_watchdog() { detail::ensure_watchdog(); }

}  // namespace cosched::exec
