#pragma once
// The one place a task's process is created: clone with CLONE_VM | CLONE_VFORK, as posix_spawn does. The child
// borrows this process's memory and runs `child(argument)` on `stack_top` until it execs or exits; this thread
// waits meanwhile, so nothing of a large launcher is copied. Where the kernel has clone3 (Linux >= 5.7, x86-64),
// the child is also created directly in its cgroup (CLONE_INTO_CGROUP: no migration, which costs an RCU grace
// period per task) and with every signal handler reset (CLONE_CLEAR_SIGHAND); elsewhere — other architectures,
// older kernels, a seccomp filter that refuses clone3 as container runtimes do — glibc's clone(), and the child
// does both itself (VforkChild says which).
#include <sys/types.h>

#include <cstddef>

namespace cosched::exec::detail {

struct VforkChild {
  // Set before the child runs, read by it: whether it was created in its cgroup with its handlers reset already.
  bool created_in_cgroup = false;
  bool handlers_cleared = false;
};

struct VforkResult {
  pid_t pid = -1;    // the child's pid; -1 when it could not be created (errno in `error`)
  int pidfd = -1;    // a pidfd of the child (CLONE_PIDFD)
  int error = 0;
};

// Creates the child; returns once it has exec'd or exited. `cgroup_dir` >= 0: a cgroup v2 folder to create it in
// (when clone3 is refused, the child must join it itself: created_in_cgroup is false). `how` is written before
// the child starts. `stack_top` is 16-byte aligned. All signals must be blocked by the caller.
[[nodiscard]] VforkResult clone_vfork(int (*child)(void*), void* argument, char* stack_top, std::size_t stack_bytes,
                                      int cgroup_dir, VforkChild& how);

}  // namespace cosched::exec::detail
