#pragma once
// Ctrl-C during a sweep: the first SIGINT asks the sweep to stop after the point being measured (so the CSV
// stays valid and --resume continues it); a second one falls back to the default action and ends the process.
#include <atomic>

namespace cosched::profiler {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the SIGINT handler
  ~InterruptGuard();  // restores the previous handler
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  [[nodiscard]] const std::atomic<bool>& flag() const noexcept;
};

}  // namespace cosched::profiler
