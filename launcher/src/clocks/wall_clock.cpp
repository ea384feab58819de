#include "cosched/launcher/clocks/wall_clock.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/stop_signals.hpp"

namespace cosched::launcher {

namespace {

constexpr double kLongestSinglePollS = 60.0;

}  // namespace

WallClock::WallClock(TaskLauncher launcher, WallClockOptions options)
    : launcher_(std::move(launcher)), options_(options), epoch_(std::chrono::steady_clock::now()) {
  if (options_.timeout_s) {
    (void)checked_number(*options_.timeout_s, positive_up_to(kMaxSeconds), "wall clock", "timeout_s");
  }
  (void)checked_number(options_.kill_grace_s, non_negative_up_to(kMaxSeconds), "wall clock", "kill_grace_s");
  if (options_.catch_stop_signals) signals_ = std::make_unique<StopSignals>();
}

WallClock::~WallClock() {
  // Children still running (an exception unwound the engine) die with their ChildProcess (SIGKILL + reap).
  running_.clear();
}

double WallClock::now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

sim::LaunchRecord WallClock::launch(std::size_t task, const platform::Grant& grant) {
  sim::LaunchRecord record;
  record.start = now();
  const auto begin = std::chrono::steady_clock::now();
  try {
    exec::TaskLaunch launch = launcher_(task, grant);
    record.argv = launch.spec.argv;
    record.fast_bytes = launch.fast_bytes;
    record.placement = launch.placement;
    // Checked before the child exists: a bad timeout fails the task without starting it.
    const std::optional<double> timeout = launch.timeout_s ? launch.timeout_s : options_.timeout_s;
    if (timeout) {
      (void)checked_number(*timeout, positive_up_to(kMaxSeconds), "task " + std::to_string(task), "timeout_s");
    }
    exec::ChildProcess child = exec::ChildProcess::spawn(launch.spec);
    record.pid = child.pid();
    Running running{task, std::move(child), std::nullopt, std::nullopt, false, false};
    if (timeout) running.deadline = record.start + *timeout;
    running_.push_back(std::move(running));
  } catch (const Error& e) {
    record.error = e.what();
  }
  record.overhead_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return record;
}

std::optional<double> WallClock::next_timer() const {
  std::optional<double> next;
  for (const auto& run : running_) {
    const std::optional<double> t = run.kill_at ? run.kill_at : (run.timed_out || run.stopping ? std::nullopt
                                                                                                : run.deadline);
    if (t && (!next || *t < *next)) next = t;
  }
  return next;
}

void WallClock::fire_timers() {
  const double t = now();
  for (auto& run : running_) {
    if (run.kill_at && t >= *run.kill_at) {
      run.child.signal_tree(SIGKILL);
      run.kill_at.reset();
    } else if (!run.timed_out && !run.stopping && run.deadline && t >= *run.deadline) {
      run.timed_out = true;
      run.child.signal_tree(SIGTERM);
      run.kill_at = t + options_.kill_grace_s;
    }
  }
}

sim::Completion WallClock::complete(Running& running, const exec::ExitInfo& exit) {
  sim::Completion completion;
  completion.task = running.task;
  completion.end = now();
  completion.exit_code = exit.exit_code;
  completion.signal = exit.signal;
  if (running.timed_out) {
    completion.status = sim::TaskStatus::timeout;
    completion.message = fmt::format("timed out, ended by {}", exit.describe());
  } else if (exit.ok()) {
    completion.status = sim::TaskStatus::ok;
  } else if (running.stopping) {
    completion.status = sim::TaskStatus::killed;
    completion.message = fmt::format("stopped, {}", exit.describe());
  } else {
    completion.status = sim::TaskStatus::failed;
    completion.message = exit.describe();
  }
  return completion;
}

std::vector<sim::Completion> WallClock::poll_once(std::optional<double> until) {
  std::vector<pollfd> fds;
  for (const auto& run : running_) fds.push_back({run.child.pidfd(), POLLIN, 0});
  if (signals_) fds.push_back({signals_->fd(), POLLIN, 0});
  std::optional<double> wake = next_timer();
  if (until && (!wake || *until < *wake)) wake = until;
  timespec timeout{};
  timespec* timeout_ptr = nullptr;
  if (wake) {
    // One ppoll waits at most a minute: wait() loops until its wake time, and no deadline however far (or a
    // rounding artefact) can overflow the timespec.
    const double seconds = std::clamp(*wake - now(), 0.0, kLongestSinglePollS);
    timeout.tv_sec = static_cast<time_t>(seconds);
    timeout.tv_nsec = static_cast<long>((seconds - static_cast<double>(timeout.tv_sec)) * 1e9);
    timeout_ptr = &timeout;
  }
  if (fds.empty() && !timeout_ptr) return {};
  const int ready = ::ppoll(fds.data(), fds.size(), timeout_ptr, nullptr);
  if (ready < 0 && errno != EINTR) throw PlatformError("ppoll", "waiting for tasks", errno);
  if (signals_ && signals_->drain()) stop_requested_ = true;
  std::vector<sim::Completion> done;
  for (auto it = running_.begin(); it != running_.end();) {
    if (auto exit = it->child.try_reap()) {
      done.push_back(complete(*it, *exit));
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
  fire_timers();
  return done;
}

std::vector<sim::Completion> WallClock::wait(std::optional<double> wake_at) {
  // Plans are checked where they are read (finite starts, at most kMaxSeconds); a wake time beyond that is a
  // bug upstream, reported rather than waited for.
  if (wake_at && !(std::isfinite(*wake_at) && *wake_at <= kMaxSeconds)) {
    throw RuntimeFailure(fmt::format("the engine asked the wall clock to wait until t = {} s", *wake_at));
  }
  while (true) {
    if (stop_requested_) return {};
    std::vector<sim::Completion> done = poll_once(wake_at);
    if (!done.empty() || stop_requested_) return done;
    if (running_.empty() && !wake_at) return {};
    if (wake_at && now() >= *wake_at) return {};
  }
}

std::vector<sim::Completion> WallClock::stop_running() {
  const double t = now();
  for (auto& run : running_) {
    run.stopping = true;
    run.child.signal_tree(SIGTERM);
    run.kill_at = t + options_.kill_grace_s;
  }
  std::vector<sim::Completion> done;
  while (!running_.empty()) {
    for (auto& completion : poll_once(std::nullopt)) done.push_back(completion);
  }
  return done;
}

}  // namespace cosched::launcher
