#pragma once
// A task is its whole process tree, not just the process cosched started: whatever the task starts in the
// background is killed when the task ends (its first process exits), times out, is stopped, or when the process
// that launched it dies — SIGKILL included. The containment is one seam with two variants, chosen by name:
//
//   process-group  (the default) the process group the child makes itself (setpgid(0, 0)); the tree is ended by
//                  signalling the group. Works everywhere, without privileges, and costs nothing at a task's start.
//                  A process that leaves the group on purpose (setsid, setpgid: a daemon, a double fork into a new
//                  session) leaves the tree and is not killed.
//   cgroup         a cgroup v2 of its own per task (<this process's cgroup>/cosched-<pid>/task-<n>), the child
//                  created in it (clone3 CLONE_INTO_CGROUP); the tree is ended with cgroup.kill. It holds every
//                  descendant, daemons that leave the process group included. Needs a cgroup v2 hierarchy with
//                  cgroup.kill (Linux >= 5.14) where this process may make cgroups (root, or a delegated subtree,
//                  e.g. a systemd user service). A task's start costs about a millisecond more: the kernel sets up
//                  each new cgroup's first task (docs/launcher.md, "Launch overhead").
//   auto           cgroup where this process can use it, else process-group.
//
// Launcher death: a watchdog process (one per process that starts children, forked on the first start or by
// start_tree_watchdog()) holds the read end of a pipe only this process holds the write end of, and shares a table
// of process groups with it: each child writes its own group into its slot before exec, and the slot is cleared
// when the task has been killed — registering a task costs no system call and wakes nobody. When this process
// dies, however it dies, the pipe reads end-of-file and the watchdog kills every group still in the table and this
// process's cgroups (cgroup.kill, then removes them), then exits. It ignores terminal signals and lives in its own
// session, so a Ctrl-C or a kill of this process's group does not take it first.
#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::exec {

// One task's process tree, from before its first process exists until that process has been reaped.
class ProcessTree {
 public:
  virtual ~ProcessTree() = default;
  // The tree's cgroup folder, open (close-on-exec), for the child to be created in (CLONE_INTO_CGROUP); -1 when
  // the child's own process group (setpgid(0, 0), which every child makes) is the tree.
  [[nodiscard]] virtual int cgroup_fd() const noexcept = 0;
  // Its cgroup.procs, open for writing (close-on-exec): where the child writes "0" to join the cgroup itself
  // before exec when it could not be created in it; -1 without a cgroup.
  [[nodiscard]] virtual int join_fd() const noexcept = 0;
  // The task's first process exists: `leader` (its process group id too).
  virtual void adopt(pid_t leader) = 0;
  // Sends `signal` to every process of the tree (none left is fine).
  virtual void signal(int signal) noexcept = 0;
  // Kills every process left in the tree. Called once the leader has exited and before it is reaped, so that its
  // pid, which names the process group, cannot have been reused.
  virtual void kill_all() noexcept = 0;
  // The leader has been reaped: forget the tree (remove its cgroup).
  virtual void release() noexcept = 0;
};

class TreeContainment {
 public:
  // `holds_escaping`: whether a process that leaves its process group on purpose (setsid, a double-forked daemon)
  // is still killed with its task.
  TreeContainment(std::string_view name, std::string_view summary, bool holds_escaping)
      : name_(name), summary_(summary), holds_escaping_(holds_escaping) {}
  virtual ~TreeContainment() = default;
  TreeContainment(const TreeContainment&) = delete;
  TreeContainment& operator=(const TreeContainment&) = delete;

  [[nodiscard]] std::string_view name() const noexcept { return name_; }
  [[nodiscard]] std::string_view summary() const noexcept { return summary_; }
  [[nodiscard]] bool holds_escaping_processes() const noexcept { return holds_escaping_; }
  // Why this process cannot use it here; nullopt when it can.
  [[nodiscard]] virtual std::optional<std::string> unavailable_because() const = 0;
  // A new tree for one task. Throws PlatformError when its cgroup cannot be made.
  [[nodiscard]] virtual std::unique_ptr<ProcessTree> open_tree() const = 0;

 private:
  std::string_view name_, summary_;
  bool holds_escaping_;
};

inline constexpr std::string_view kDefaultTreeContainment = "process-group";
inline constexpr std::string_view kStrongestTreeContainment = "auto";

// The containment named `name`: "cgroup", "process-group", or "auto" (the first of them this process can use).
// Throws UsageError for an unknown name (listing the known ones), ResourceError for one this machine does not
// offer (saying why).
[[nodiscard]] const TreeContainment& tree_containment(std::string_view name);
// Every variant, then "auto".
[[nodiscard]] std::vector<std::string> tree_containment_names();

// Starts this process's watchdog now (it is otherwise started by the first child), so that its fork is not part
// of a task's start. Throws PlatformError when it cannot be started.
void start_tree_watchdog();

}  // namespace cosched::exec
