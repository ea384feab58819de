#include "cosched/profiler/interrupt.hpp"

#include <csignal>

namespace cosched::profiler {
namespace {

std::atomic<bool> g_interrupted{false};
struct sigaction g_previous {};

extern "C" void on_sigint(int) {
  g_interrupted.store(true);
  // A second Ctrl-C must still end the process: the next SIGINT gets the default action.
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  action.sa_flags = SA_RESTART;  // the CSV write in progress must not fail with EINTR
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &g_previous, nullptr); }

const std::atomic<bool>& InterruptGuard::flag() const noexcept { return g_interrupted; }

}  // namespace cosched::profiler
