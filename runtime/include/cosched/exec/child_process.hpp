#pragma once
// One task as a child process, never through a shell, placed before exec: in its own process group and its own
// process tree (process_tree.hpp: its process group, or a cgroup v2 of its own; the whole tree is killed when the
// task's first process ends, and by a watchdog when the launcher dies), killed if the launcher dies
// (PR_SET_PDEATHSIG), bound to its PUs with sched_setaffinity and the binding read back and compared, given a NUMA
// memory policy when one is asked for, with extra environment variables when asked. Every failure before exec is
// reported naming the step and errno: a task that could not be bound never runs unbound.
//
// How: clone(CLONE_VM | CLONE_VFORK), as posix_spawn does — the child borrows this process's memory until exec
// instead of copying its page tables (a fork of a large launcher took most of a task's start), everything it needs
// is prepared before, and it reports a failed step by writing it into that shared memory. Timing and method:
// docs/launcher.md, "Tasks as child processes".
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosched/exec/process_tree.hpp"
#include "cosched/platform/mempolicy.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::exec {

namespace detail {
class WatchSlot;
}

// A set_mempolicy(2) applied in the child before exec; the tier backend chooses it (platform::ChildPlacement).
using MemoryPolicy = platform::MemoryPolicy;

struct ChildSpec {
  std::vector<std::string> argv;   // argv[0]: a path, or a name looked up in PATH (by the parent)
  std::vector<unsigned> pus;       // PU OS indices to bind to; never empty
  MemoryPolicy memory;
  std::filesystem::path stdout_path;  // empty: /dev/null
  std::filesystem::path stderr_path;  // empty: /dev/null
  // NAME=VALUE set in the child's environment on top of this process's (a command's env, autohbw's LD_PRELOAD).
  std::vector<std::string> environment;
  // Weighted interleave: the system-wide node weights the child's policy needs, held while it runs
  // (platform::InterleaveWeightsLease: refused when a running child holds other weights).
  std::map<unsigned, unsigned> interleave_weights;
  // How its process tree is held and ended (process_tree.hpp): "process-group", "cgroup" or "auto".
  std::string containment = std::string(kDefaultTreeContainment);
};

struct ExitInfo {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  [[nodiscard]] bool ok() const noexcept { return signal == 0 && exit_code == 0; }
  [[nodiscard]] std::string describe() const;  // "exit 3", "signal 9 (Killed)"
};

class ChildProcess {
 public:
  // Starts the child and returns once it has exec'd, bound and placed. Throws InputError when the program is not
  // found, RuntimeFailure naming the step (process group, tree, binding, binding check, mempolicy, exec) and errno
  // when it could not start — nothing is left running —, ResourceError / UsageError for a containment that is
  // not available or not known.
  [[nodiscard]] static ChildProcess spawn(const ChildSpec& spec);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // a child still running is killed (SIGKILL to its whole tree) and reaped

  [[nodiscard]] int pid() const noexcept { return pid_; }
  [[nodiscard]] int pidfd() const noexcept { return pidfd_; }  // readable once the child has exited
  // From the start of spawn() (preparation included) to exec confirmed, in seconds.
  [[nodiscard]] double launch_overhead_s() const noexcept { return overhead_s_; }

  // Sends `signal` to every process of the child's tree (none left is fine).
  void signal_tree(int signal) const;
  // Reaps the child if it has exited; nullopt while it runs. Whatever it left running in its tree is killed first:
  // a task is over when its first process is.
  [[nodiscard]] std::optional<ExitInfo> try_reap();
  // Blocks until the child exits, then kills what is left of its tree and reaps it.
  ExitInfo reap();
  // Waits at most `seconds` (finite, >= 0) for the child to exit and reaps it; nullopt when it still runs.
  [[nodiscard]] std::optional<ExitInfo> reap_within(double seconds);
  // Waits at most `seconds` (nullopt: for ever) for the child to exit and reaps it; when it still runs, stops its tree
  // — SIGTERM, then SIGKILL after `grace_s` — reaps it and returns nullopt: a run that outlived its deadline is over
  // when this returns, whatever it does with SIGTERM.
  [[nodiscard]] std::optional<ExitInfo> reap_or_stop(std::optional<double> seconds, double grace_s);

 private:
  ChildProcess(int pid, int pidfd, std::unique_ptr<ProcessTree> tree, detail::WatchSlot watch);
  void close_and_forget() noexcept;
  // The leader has exited (`exited` says how) and is not reaped yet: kill the rest of the tree, reap, release.
  ExitInfo end_tree(const siginfo_t& exited);

  int pid_ = -1;
  int pidfd_ = -1;
  double overhead_s_ = 0.0;
  bool reaped_ = false;
  std::unique_ptr<platform::InterleaveWeightsLease> weights_;  // released when the child is reaped
  std::unique_ptr<ProcessTree> tree_;
  std::unique_ptr<detail::WatchSlot> watch_;  // its group in the watchdog's table until it is killed
};

// The executable `name` resolves to (a name without '/' is looked up in PATH): a file with execute permission, not a
// folder (which execve refuses only once the run has started). Throws InputError when none, quoting `name` bounded
// (bounded_echo).
[[nodiscard]] std::filesystem::path resolve_executable(const std::string& name);

}  // namespace cosched::exec
