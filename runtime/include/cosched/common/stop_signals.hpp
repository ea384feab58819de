#pragma once
// The one way a long-running command (a profiling sweep, a launch) learns that the user wants it to stop.
// SIGINT and SIGTERM are caught while a StopSignals exists: the first one asks the work to stop at its next safe
// point — the profile CSV keeps every finished row, the journal every finished task, and --resume continues — and
// a second one gets the default action, so an impatient user can still end the process at once.
// The request is both an atomic flag (for loops that check between steps) and a readable file descriptor (a
// self-pipe, for loops that wait in poll/ppoll). A handler, not signalfd with a blocked mask, because OpenMP and
// other threads of the process would otherwise take the signal's default action. One instance at a time.
#include <atomic>
#include <csignal>

namespace cosched {

class StopSignals {
 public:
  StopSignals();   // installs the handlers; throws PlatformError when the pipe cannot be made
  ~StopSignals();  // restores the previous handlers
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // True once SIGINT or SIGTERM arrived while this instance existed.
  [[nodiscard]] bool requested() const noexcept { return flag().load(); }
  // The same, as a flag a loop can be handed (a lock-free atomic: the handler may store to it).
  [[nodiscard]] const std::atomic<bool>& flag() const noexcept;
  // Readable when a signal arrived; for poll/ppoll.
  [[nodiscard]] int fd() const noexcept { return read_fd_; }
  // Empties the pipe; true when it held a signal since the last call.
  [[nodiscard]] bool drain() const noexcept;

 private:
  int read_fd_ = -1;
  int write_fd_ = -1;
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace cosched
