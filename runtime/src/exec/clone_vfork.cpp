#include "clone_vfork.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

namespace cosched::exec::detail {

namespace {

// struct clone_args of linux/sched.h (its version 2, 88 bytes), spelled out: that header's CLONE_* macros clash
// with glibc's.
struct CloneArgs {
  std::uint64_t flags = 0;
  std::uint64_t pidfd = 0;
  std::uint64_t child_tid = 0;
  std::uint64_t parent_tid = 0;
  std::uint64_t exit_signal = 0;
  std::uint64_t stack = 0;
  std::uint64_t stack_size = 0;
  std::uint64_t tls = 0;
  std::uint64_t set_tid = 0;
  std::uint64_t set_tid_size = 0;
  std::uint64_t cgroup = 0;
};
constexpr std::uint64_t kCloneClearSighand = 0x100000000ULL;
constexpr std::uint64_t kCloneIntoCgroup = 0x200000000ULL;

// Whether clone3 has worked (or not been refused yet) in this process; once refused, glibc's clone from then on.
std::atomic<bool> g_clone3_usable{true};

#if defined(__x86_64__)
// clone3 with the child calling child(argument) on the new stack and then exiting with its result: the child must
// not return through this function's frame, which belongs to the waiting parent (a raw syscall() would). Returns
// the pid, or -errno.
[[gnu::noinline]] long clone3_call(CloneArgs* args, int (*child)(void*), void* argument) {
  long result;
  register long function asm("r8") = reinterpret_cast<long>(child);
  register long parameter asm("r9") = reinterpret_cast<long>(argument);
  asm volatile(
      "syscall\n\t"
      "test %%rax, %%rax\n\t"
      "jnz 1f\n\t"
      // The child: rsp is the new stack's top (16-byte aligned, so the call leaves the ABI's alignment).
      "xor %%ebp, %%ebp\n\t"
      "mov %%r9, %%rdi\n\t"
      "call *%%r8\n\t"
      "mov %%eax, %%edi\n\t"
      "mov $60, %%eax\n\t"  // exit(2): the child has only this thread
      "syscall\n\t"
      "hlt\n\t"
      "1:\n\t"
      : "=a"(result)
      : "a"(static_cast<long>(SYS_clone3)), "D"(args), "S"(sizeof(CloneArgs)), "r"(function), "r"(parameter)
      : "rcx", "r11", "memory");
  return result;
}
constexpr bool kHaveClone3Call = true;
#else
long clone3_call(CloneArgs*, int (*)(void*), void*) { return -ENOSYS; }
constexpr bool kHaveClone3Call = false;
#endif

}  // namespace

VforkResult clone_vfork(int (*child)(void*), void* argument, char* stack_top, std::size_t stack_bytes,
                        int cgroup_dir, VforkChild& how) {
  VforkResult result;
  if (kHaveClone3Call && g_clone3_usable.load(std::memory_order_relaxed)) {
    how.created_in_cgroup = cgroup_dir >= 0;
    how.handlers_cleared = true;
    CloneArgs args;
    args.flags = CLONE_VM | CLONE_VFORK | CLONE_PIDFD | kCloneClearSighand | (cgroup_dir >= 0 ? kCloneIntoCgroup : 0);
    args.pidfd = reinterpret_cast<std::uintptr_t>(&result.pidfd);
    args.exit_signal = SIGCHLD;
    args.stack = reinterpret_cast<std::uintptr_t>(stack_top - stack_bytes);
    args.stack_size = stack_bytes;
    args.cgroup = cgroup_dir >= 0 ? static_cast<std::uint64_t>(cgroup_dir) : 0;
    const long pid = clone3_call(&args, child, argument);
    if (pid > 0) {
      result.pid = static_cast<pid_t>(pid);
      return result;
    }
    // No clone3 (ENOSYS: an older kernel, or a seccomp filter; EPERM from some filters, when no cgroup could be
    // the reason), or flags it does not know (EINVAL, E2BIG): the portable way from now on. Other errors (EAGAIN,
    // ENOMEM, a cgroup refused) are the caller's.
    const bool refused = pid == -ENOSYS || pid == -EINVAL || pid == -E2BIG || (pid == -EPERM && cgroup_dir < 0);
    if (!refused) {
      result.error = static_cast<int>(-pid);
      return result;
    }
    g_clone3_usable.store(false, std::memory_order_relaxed);
  }
  how.created_in_cgroup = false;
  how.handlers_cleared = false;
  result.pid = ::clone(child, stack_top, CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, argument, &result.pidfd);
  if (result.pid < 0) result.error = errno;
  return result;
}

}  // namespace cosched::exec::detail
