#include "platform/topology/crash_isolation.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/core.h>

#include "cosched/common/error.hpp"

namespace cosched::platform::topology_detail {

std::optional<std::string> crash_in_child(const std::function<void()>& work) {
  const pid_t pid = ::fork();
  if (pid < 0) throw PlatformError("fork", "cannot start the child that tries the file first", errno);
  if (pid == 0) {
    const int null_fd = ::open("/dev/null", O_WRONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDERR_FILENO);
    // A crash ends the child by its signal, also under a sanitizer (whose handlers would exit with a code).
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    for (const int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(signal, &default_action, nullptr);
    try {
      work();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the parent meets the same exception when it does the work
    }
    ::_exit(0);  // never exit(): the parent's stdio buffers and atexit handlers are not the child's to run
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw PlatformError("waitpid", "lost the child that tries the file first", errno);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  if (WIFSIGNALED(status)) {
    return fmt::format("crashed with signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  }
  return fmt::format("ended with exit code {}", WEXITSTATUS(status));
}

}  // namespace cosched::platform::topology_detail
