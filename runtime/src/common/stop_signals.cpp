#include "cosched/common/stop_signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>

#include "cosched/common/error.hpp"

namespace cosched {

namespace {

volatile sig_atomic_t g_write_fd = -1;
std::atomic<bool> g_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler stores to it");

extern "C" void on_stop_signal(int signal) {
  const int saved = errno;
  if (g_requested.load()) {
    // The second stop request: the default action (the process ends now).
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  g_requested.store(true);
  const int fd = g_write_fd;
  if (fd >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(fd, &byte, 1);
  }
  errno = saved;
}

}  // namespace

StopSignals::StopSignals() {
  assert(g_write_fd < 0 && "one StopSignals at a time");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) throw PlatformError("pipe2", "stop-signal pipe", errno);
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  g_requested.store(false);
  g_write_fd = write_fd_;
  struct sigaction action {};
  action.sa_handler = &on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a CSV row or journal line being written must not fail with EINTR
  ::sigaction(SIGINT, &action, &previous_int_);
  ::sigaction(SIGTERM, &action, &previous_term_);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &previous_int_, nullptr);
  ::sigaction(SIGTERM, &previous_term_, nullptr);
  g_write_fd = -1;
  ::close(read_fd_);
  ::close(write_fd_);
}

const std::atomic<bool>& StopSignals::flag() const noexcept { return g_requested; }

bool StopSignals::drain() const noexcept {
  char buffer[64];
  bool any = false;
  while (::read(read_fd_, buffer, sizeof buffer) > 0) any = true;
  return any;
}

}  // namespace cosched
