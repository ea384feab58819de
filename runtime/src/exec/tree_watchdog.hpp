#pragma once
// This process's tree watchdog (process_tree.hpp, "Launcher death") and the cgroup folder it cleans up. One per
// process: a child made with fork() that starts tasks of its own (a test forking a launcher) gets its own.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <utility>

namespace cosched::exec::detail {

// The cgroup v2 folder of this process (from /proc/self/cgroup and the cgroup2 mount of /proc/self/mountinfo);
// nullopt without a cgroup v2 hierarchy.
[[nodiscard]] std::optional<std::filesystem::path> own_cgroup();

// Where this process makes its tasks' cgroups: <own_cgroup()>/cosched-<pid>; nullopt without cgroup v2.
[[nodiscard]] std::optional<std::filesystem::path> task_cgroup_root();

// Starts the watchdog of this process if it is not running (or died). Throws PlatformError.
void ensure_watchdog();

// One entry of the table of process groups the watchdog kills when this process dies: a word of memory shared
// with the watchdog, so that registering a task costs no system call and wakes nobody (the watchdog sleeps until
// this process is gone, then reads the table). The child stores its own pid in it before exec (watch_own_group),
// so its tree is watched before its program runs; the slot is cleared and freed when it goes.
class WatchSlot {
 public:
  // Reserves a free slot (starting the watchdog if need be). Throws PlatformError when the watchdog cannot be
  // started, ResourceError when every slot is taken.
  [[nodiscard]] static WatchSlot reserve();
  WatchSlot(WatchSlot&& other) noexcept : index_(std::exchange(other.index_, -1)), word_(std::exchange(other.word_, nullptr)) {}
  WatchSlot& operator=(WatchSlot&&) = delete;
  WatchSlot(const WatchSlot&) = delete;
  WatchSlot& operator=(const WatchSlot&) = delete;
  ~WatchSlot() { release(); }

  // In the child, before exec (async-signal-safe): the watchdog will kill this process's group.
  void watch_own_group() const noexcept;
  // The group is dead or reaped: the watchdog forgets it and the slot is free again.
  void release() noexcept;

 private:
  WatchSlot(int index, volatile pid_t* word) : index_(index), word_(word) {}
  int index_ = -1;
  volatile pid_t* word_ = nullptr;
};

}  // namespace cosched::exec::detail
