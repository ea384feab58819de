#include "cosched/exec/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <utility>

#include "cosched/common/error.hpp"

namespace cosched::exec {

namespace {

// Steps of the child before exec, reported through the pipe when one fails.
// `placed` is not a failure: the child reports that it is bound and waits for the parent's go.
enum class Step : int { process_group, death_signal, signals, redirect, binding, binding_check, mempolicy, exec, placed };

const char* step_name(Step step) {
  switch (step) {
    case Step::process_group: return "setpgid";
    case Step::death_signal: return "prctl(PR_SET_PDEATHSIG)";
    case Step::signals: return "sigprocmask";
    case Step::redirect: return "dup2 (stdout/stderr)";
    case Step::binding: return "sched_setaffinity (binding)";
    case Step::binding_check: return "sched_getaffinity (binding check: the kernel did not apply the cpuset)";
    case Step::mempolicy: return "set_mempolicy";
    case Step::exec: return "execve";
    case Step::placed: return "placement";
  }
  return "?";
}

struct ChildMessage {
  Step step;
  int error;
};

// Owns a file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  ~Fd() { reset(); }
  [[nodiscard]] int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

Fd open_output(const std::filesystem::path& path) {
  const char* name = path.empty() ? "/dev/null" : path.c_str();
  const int fd = ::open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw RuntimeFailure(fmt::format("open {}: {}", name, std::strerror(errno)));
  return Fd(fd);
}

// Everything the child needs, prepared by the parent: after fork only async-signal-safe calls are allowed.
struct Prepared {
  std::string path;
  std::vector<char*> argv;
  cpu_set_t cpus{};
  std::array<unsigned long, 16> nodemask{};  // 1024 nodes
  int memory_mode = 0;
  bool has_memory_policy = false;
  std::vector<std::string> environment;  // the child's whole environment, NAME=VALUE
  std::vector<char*> envp;
  Fd stdin_fd, stdout_fd, stderr_fd;
};

// This process's environment with `overrides` (NAME=VALUE) replacing or adding variables.
std::vector<std::string> child_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> result;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) result.emplace_back(*entry);
  for (const auto& variable : overrides) {
    const std::size_t equals = variable.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw InputError("", fmt::format("environment entry '{}' is not NAME=VALUE", variable));
    }
    const std::string prefix = variable.substr(0, equals + 1);
    std::erase_if(result, [&](const std::string& existing) { return existing.starts_with(prefix); });
    result.push_back(variable);
  }
  return result;
}

[[noreturn]] void fail_in_child(int pipe_fd, Step step) {
  const ChildMessage failure{step, errno};
  // Nothing to do if this write fails: the parent then sees an exit status 127 without a reason.
  [[maybe_unused]] const ssize_t n = ::write(pipe_fd, &failure, sizeof failure);
  ::_exit(127);
}

[[noreturn]] void run_child(const Prepared& prepared, int pipe_fd, int go_fd, pid_t parent) {
  if (::setpgid(0, 0) != 0) fail_in_child(pipe_fd, Step::process_group);
  // A launcher killed with SIGKILL must not leave its tasks running: the journal says they did not complete.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail_in_child(pipe_fd, Step::death_signal);
  if (::getppid() != parent) ::_exit(127);  // the launcher already died
  sigset_t none;
  sigemptyset(&none);
  if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) fail_in_child(pipe_fd, Step::signals);
  if (::dup2(prepared.stdin_fd.get(), STDIN_FILENO) < 0 || ::dup2(prepared.stdout_fd.get(), STDOUT_FILENO) < 0 ||
      ::dup2(prepared.stderr_fd.get(), STDERR_FILENO) < 0) {
    fail_in_child(pipe_fd, Step::redirect);
  }
  if (::sched_setaffinity(0, sizeof prepared.cpus, &prepared.cpus) != 0) fail_in_child(pipe_fd, Step::binding);
  cpu_set_t applied;
  CPU_ZERO(&applied);
  if (::sched_getaffinity(0, sizeof applied, &applied) != 0 || !CPU_EQUAL(&applied, &prepared.cpus)) {
    fail_in_child(pipe_fd, Step::binding_check);
  }
  if (prepared.has_memory_policy &&
      ::syscall(SYS_set_mempolicy, prepared.memory_mode, prepared.nodemask.data(),
                static_cast<unsigned long>(prepared.nodemask.size() * 64 + 1)) != 0) {
    fail_in_child(pipe_fd, Step::mempolicy);
  }
  // Placed: let the parent read the binding back while nothing can change it (after exec the program may
  // rebind itself — hwloc does while it discovers the machine), and exec only on its go.
  const ChildMessage placed{Step::placed, 0};
  if (::write(pipe_fd, &placed, sizeof placed) != static_cast<ssize_t>(sizeof placed)) ::_exit(127);
  char go = 0;
  if (::read(go_fd, &go, 1) != 1 || go != 1) ::_exit(127);
  ::execve(prepared.path.c_str(), prepared.argv.data(), prepared.envp.data());
  fail_in_child(pipe_fd, Step::exec);
}

std::vector<unsigned> affinity_of(pid_t pid) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(pid, sizeof set, &set) != 0) return {};
  std::vector<unsigned> pus;
  for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) pus.push_back(cpu);
  }
  return pus;
}

}  // namespace

std::string ExitInfo::describe() const {
  if (signal != 0) return fmt::format("signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit {}", exit_code);
}

std::filesystem::path resolve_executable(const std::string& name) {
  if (name.empty()) throw InputError("", "empty command");
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) != 0) throw InputError(name, "not an executable file");
    return name;
  }
  const char* path_env = std::getenv("PATH");
  const std::string path = path_env != nullptr ? path_env : "/usr/bin:/bin";
  std::size_t begin = 0;
  while (begin <= path.size()) {
    const std::size_t end = std::min(path.find(':', begin), path.size());
    const std::filesystem::path candidate = std::filesystem::path(path.substr(begin, end - begin)) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) return candidate;
    begin = end + 1;
  }
  throw InputError(name, "command not found in PATH");
}

ChildProcess ChildProcess::spawn(const ChildSpec& spec) {
  if (spec.argv.empty()) throw InputError("", "a task needs a command");
  if (spec.pus.empty()) throw RuntimeFailure("a task must be bound to at least one PU");
  const auto begin = std::chrono::steady_clock::now();

  Prepared prepared;
  prepared.path = resolve_executable(spec.argv.front()).string();
  for (const auto& arg : spec.argv) prepared.argv.push_back(const_cast<char*>(arg.c_str()));
  prepared.argv.push_back(nullptr);
  CPU_ZERO(&prepared.cpus);
  for (unsigned pu : spec.pus) {
    if (pu >= CPU_SETSIZE) throw RuntimeFailure(fmt::format("PU {} beyond CPU_SETSIZE", pu));
    CPU_SET(pu, &prepared.cpus);
  }
  if (!spec.memory.nodes.empty()) {
    prepared.has_memory_policy = true;
    prepared.memory_mode = spec.memory.mode;
    for (unsigned node : spec.memory.nodes) {
      if (node >= prepared.nodemask.size() * 64) throw RuntimeFailure(fmt::format("NUMA node {} too large", node));
      prepared.nodemask[node / 64] |= 1UL << (node % 64);
    }
  }
  prepared.environment = child_environment(spec.environment);
  for (auto& variable : prepared.environment) prepared.envp.push_back(variable.data());
  prepared.envp.push_back(nullptr);
  // Before fork: a child whose weights conflict with a running one's never starts.
  std::unique_ptr<platform::InterleaveWeightsLease> weights;
  if (!spec.interleave_weights.empty()) {
    weights = std::make_unique<platform::InterleaveWeightsLease>(spec.interleave_weights);
  }
  prepared.stdin_fd = Fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (prepared.stdin_fd.get() < 0) throw RuntimeFailure(fmt::format("open /dev/null: {}", std::strerror(errno)));
  prepared.stdout_fd = open_output(spec.stdout_path);
  prepared.stderr_fd = open_output(spec.stderr_path);

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw PlatformError("pipe2", "cannot create the launch pipe", errno);
  Fd read_end(pipe_fds[0]);
  Fd write_end(pipe_fds[1]);
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw PlatformError("pipe2", "cannot create the go pipe", errno);
  Fd go_read(pipe_fds[0]);
  Fd go_write(pipe_fds[1]);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw PlatformError("fork", "cannot start task " + spec.argv.front(), errno);
  if (pid == 0) run_child(prepared, write_end.get(), go_read.get(), parent);

  write_end.reset();
  go_read.reset();
  // Also set the group from the parent: whichever runs first, signals to -pid reach the child from now on.
  ::setpgid(pid, pid);
  const auto read_message = [&](ChildMessage& message) {
    ssize_t n;
    do {
      n = ::read(read_end.get(), &message, sizeof message);
    } while (n < 0 && errno == EINTR);
    return n == static_cast<ssize_t>(sizeof message);
  };
  const auto abandon = [&](const std::string& why) {
    go_write.reset();  // the child reads EOF and exits without exec
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return RuntimeFailure(why);
  };
  ChildMessage message{};
  if (!read_message(message)) throw abandon(fmt::format("cannot start {}: the child died before exec", spec.argv.front()));
  if (message.step != Step::placed) {
    throw abandon(fmt::format("cannot start {}: {} failed: {}", spec.argv.front(), step_name(message.step),
                              std::strerror(message.error)));
  }
  // The parent's own check of the binding, while the child waits before exec.
  std::vector<unsigned> wanted = spec.pus;
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  const std::vector<unsigned> bound = affinity_of(pid);
  if (bound != wanted) {
    throw abandon(fmt::format("task process {} is bound to PUs {{{}}}, not the {{{}}} asked for", pid,
                              fmt::join(bound, ","), fmt::join(wanted, ",")));
  }
  const char go = 1;
  if (::write(go_write.get(), &go, 1) != 1) throw abandon("cannot release the task process to exec");
  go_write.reset();
  if (read_message(message)) {
    ::waitpid(pid, nullptr, 0);
    throw RuntimeFailure(fmt::format("cannot start {}: {} failed: {}", spec.argv.front(), step_name(message.step),
                                     std::strerror(message.error)));
  }
  // EOF: exec succeeded (the pipe closed on exec). From here on the child is ours to reap.
  // Through syscall(2): glibc 2.36 declares pidfd_open without C linkage for C++.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  ChildProcess child(pid, pidfd, 0.0);
  if (pidfd < 0) {
    const int saved = errno;
    child.signal_group(SIGKILL);
    throw PlatformError("pidfd_open", fmt::format("cannot watch task process {}", pid), saved);
  }
  child.overhead_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  child.weights_ = std::move(weights);
  return child;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      pidfd_(std::exchange(other.pidfd_, -1)),
      overhead_s_(other.overhead_s_),
      reaped_(std::exchange(other.reaped_, true)),
      weights_(std::move(other.weights_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    close_and_forget();
    pid_ = std::exchange(other.pid_, -1);
    pidfd_ = std::exchange(other.pidfd_, -1);
    overhead_s_ = other.overhead_s_;
    reaped_ = std::exchange(other.reaped_, true);
    weights_ = std::move(other.weights_);
  }
  return *this;
}

ChildProcess::~ChildProcess() { close_and_forget(); }

void ChildProcess::close_and_forget() noexcept {
  if (pid_ > 0 && !reaped_) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (pidfd_ >= 0) ::close(pidfd_);
  pid_ = -1;
  pidfd_ = -1;
  reaped_ = true;
  weights_.reset();
}

void ChildProcess::signal_group(int signal) const {
  if (pid_ <= 0 || reaped_) return;
  if (::kill(-pid_, signal) != 0 && errno == ESRCH) ::kill(pid_, signal);
}

namespace {
// What waitid reported: an exit code for a normal exit, else the signal that ended the process.
ExitInfo exit_info_of(const siginfo_t& info) {
  ExitInfo exit;
  if (info.si_code == CLD_EXITED) {
    exit.exit_code = info.si_status;
  } else {
    exit.signal = info.si_status;
  }
  return exit;
}
}  // namespace

std::optional<ExitInfo> ChildProcess::try_reap() {
  if (reaped_) return std::nullopt;
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG) != 0) {
    throw PlatformError("waitid", fmt::format("task process {}", pid_), errno);
  }
  if (info.si_pid == 0) return std::nullopt;
  reaped_ = true;
  weights_.reset();
  return exit_info_of(info);
}

std::optional<ExitInfo> ChildProcess::reap_within(double seconds) {
  if (reaped_) return std::nullopt;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    pollfd watch{pidfd_, POLLIN, 0};
    // At most a minute per poll: a timeout of 10^9 s must not overflow the milliseconds.
    const int wait_ms = left <= 0.0 ? 0 : static_cast<int>(std::min(60'000.0, std::ceil(left * 1000.0)));
    const int ready = ::poll(&watch, 1, wait_ms);
    if (ready < 0 && errno != EINTR) throw PlatformError("poll", fmt::format("task process {}", pid_), errno);
    if (ready > 0) return reap();
    if (left <= 0.0) return std::nullopt;
  }
}

ExitInfo ChildProcess::reap() {
  while (true) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED) != 0) {
      if (errno == EINTR) continue;
      throw PlatformError("waitid", fmt::format("task process {}", pid_), errno);
    }
    reaped_ = true;
    weights_.reset();
    return exit_info_of(info);
  }
}

}  // namespace cosched::exec
