#pragma once
// One task as a child process: fork + exec (never a shell), placed before exec — bound to its PUs with
// sched_setaffinity (checked in the child, then read back from the parent), given a NUMA memory policy when one
// is asked for, in its own process group (so a timeout or Ctrl-C reaches every process the task started) and
// killed if the launcher dies (PR_SET_PDEATHSIG), with extra environment variables when asked. Every failure before exec comes back through a close-on-exec
// pipe, naming the step and errno: a task that could not be bound never runs unbound.
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosched/platform/mempolicy.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::exec {

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
};

struct ExitInfo {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  [[nodiscard]] bool ok() const noexcept { return signal == 0 && exit_code == 0; }
  [[nodiscard]] std::string describe() const;  // "exit 3", "signal 9 (Killed)"
};

class ChildProcess {
 public:
  // Starts the child and returns once it has exec'd and its binding has been verified. Throws RuntimeFailure
  // naming the step (lookup, open, binding, mempolicy, exec) when it could not start; nothing is left running.
  [[nodiscard]] static ChildProcess spawn(const ChildSpec& spec);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // a child still running is killed (SIGKILL to its group) and reaped

  [[nodiscard]] int pid() const noexcept { return pid_; }
  [[nodiscard]] int pidfd() const noexcept { return pidfd_; }  // readable once the child has exited
  // fork -> exec confirmed -> binding read back, in seconds.
  [[nodiscard]] double launch_overhead_s() const noexcept { return overhead_s_; }

  // Sends `signal` to the child's process group (ESRCH, already gone, is fine).
  void signal_group(int signal) const;
  // Reaps the child if it has exited; nullopt while it runs.
  [[nodiscard]] std::optional<ExitInfo> try_reap();
  // Blocks until the child exits.
  ExitInfo reap();
  // Waits at most `seconds` (finite, >= 0) for the child to exit and reaps it; nullopt when it still runs.
  [[nodiscard]] std::optional<ExitInfo> reap_within(double seconds);

 private:
  ChildProcess(int pid, int pidfd, double overhead_s) : pid_(pid), pidfd_(pidfd), overhead_s_(overhead_s) {}
  void close_and_forget() noexcept;

  int pid_ = -1;
  int pidfd_ = -1;
  double overhead_s_ = 0.0;
  bool reaped_ = false;
  std::unique_ptr<platform::InterleaveWeightsLease> weights_;  // released when the child is reaped
};

// The executable `name` resolves to (a name without '/' is looked up in PATH). Throws InputError when none.
[[nodiscard]] std::filesystem::path resolve_executable(const std::string& name);

}  // namespace cosched::exec
