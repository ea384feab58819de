#include "cosched/exec/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
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
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <utility>

#include "cosched/common/error.hpp"
#include "clone_vfork.hpp"
#include "tree_watchdog.hpp"
#include "unique_fd.hpp"

namespace cosched::exec {

namespace {

using detail::UniqueFd;

// Steps of the child before exec, reported when one fails.
enum class Step : int {
  none,
  process_group,
  death_signal,
  launcher_gone,
  join_tree,
  redirect,
  binding,
  binding_check,
  mempolicy,
  signals,
  exec
};

const char* step_name(Step step) {
  switch (step) {
    case Step::none: return "nothing";
    case Step::process_group: return "setpgid";
    case Step::death_signal: return "prctl(PR_SET_PDEATHSIG)";
    case Step::launcher_gone: return "getppid (the launcher died while starting it)";
    case Step::join_tree: return "joining its cgroup (cgroup.procs)";
    case Step::redirect: return "dup2 (stdout/stderr)";
    case Step::binding: return "sched_setaffinity (binding)";
    case Step::binding_check: return "sched_getaffinity (binding check: the kernel did not apply the cpuset)";
    case Step::mempolicy: return "set_mempolicy";
    case Step::signals: return "sigprocmask";
    case Step::exec: return "execve";
  }
  return "?";
}

UniqueFd open_output(const std::filesystem::path& path) {
  const char* name = path.empty() ? "/dev/null" : path.c_str();
  const int fd = ::open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw RuntimeFailure(fmt::format("open {}: {}", name, std::strerror(errno)));
  return UniqueFd(fd);
}

// Everything the child needs, prepared by the parent: the child shares this memory until exec (CLONE_VM) and only
// reads it, but for `failed_step` and `failed_errno`, where it says which step failed.
struct Prepared {
  std::string path;
  std::vector<char*> argv;
  cpu_set_t cpus{};
  std::array<unsigned long, 16> nodemask{};  // 1024 nodes
  int memory_mode = 0;
  bool has_memory_policy = false;
  std::vector<std::string> environment;  // the child's whole environment, NAME=VALUE
  std::vector<char*> envp;
  UniqueFd stdin_fd, stdout_fd, stderr_fd;
  int join_fd = -1;  // the tree's cgroup.procs, -1: the process group is the tree
  const detail::WatchSlot* watch = nullptr;
  detail::VforkChild how;  // what clone_vfork did for the child already
  pid_t parent = 0;
  volatile Step failed_step = Step::none;
  volatile int failed_errno = 0;
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

[[noreturn]] void fail_in_child(Prepared& prepared, Step step) {
  prepared.failed_errno = errno;
  prepared.failed_step = step;
  ::_exit(127);
}

// The child, from clone to exec. It runs on its own stack in the parent's memory while the parent waits
// (CLONE_VFORK): async-signal-safe calls only, nothing allocated, nothing of the parent's changed but the failure.
int run_child(void* argument) {
  Prepared& prepared = *static_cast<Prepared*>(argument);
  // The parent's signal handlers must never run here, in its memory: every signal is blocked (by the parent,
  // around clone) until each handled one is back to its default (exec would reset them, but only at exec).
  for (int sig = 1; !prepared.how.handlers_cleared && sig < _NSIG; ++sig) {
    struct sigaction current {};
    if (sig == SIGKILL || sig == SIGSTOP || ::sigaction(sig, nullptr, &current) != 0) continue;
    if (current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN) continue;
    struct sigaction restore {};
    restore.sa_handler = SIG_DFL;
    ::sigaction(sig, &restore, nullptr);
  }
  if (::setpgid(0, 0) != 0) fail_in_child(prepared, Step::process_group);
  // A launcher killed with SIGKILL must not leave its tasks running: the journal says they did not complete.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail_in_child(prepared, Step::death_signal);
  if (::getppid() != prepared.parent) fail_in_child(prepared, Step::launcher_gone);
  // Into its tree before its program can start anything, so that nothing it starts is outside it.
  if (prepared.join_fd >= 0 && !prepared.how.created_in_cgroup && ::write(prepared.join_fd, "0", 1) != 1) {
    fail_in_child(prepared, Step::join_tree);
  }
  prepared.watch->watch_own_group();
  if (::dup2(prepared.stdin_fd.get(), STDIN_FILENO) < 0 || ::dup2(prepared.stdout_fd.get(), STDOUT_FILENO) < 0 ||
      ::dup2(prepared.stderr_fd.get(), STDERR_FILENO) < 0) {
    fail_in_child(prepared, Step::redirect);
  }
  if (::sched_setaffinity(0, sizeof prepared.cpus, &prepared.cpus) != 0) fail_in_child(prepared, Step::binding);
  // The binding read back before the program runs (after exec a program may legitimately rebind itself: hwloc
  // binds to every PU while it discovers the machine).
  cpu_set_t applied;
  CPU_ZERO(&applied);
  if (::sched_getaffinity(0, sizeof applied, &applied) != 0 || !CPU_EQUAL(&applied, &prepared.cpus)) {
    fail_in_child(prepared, Step::binding_check);
  }
  if (prepared.has_memory_policy &&
      ::syscall(SYS_set_mempolicy, prepared.memory_mode, prepared.nodemask.data(),
                static_cast<unsigned long>(prepared.nodemask.size() * 64 + 1)) != 0) {
    fail_in_child(prepared, Step::mempolicy);
  }
  sigset_t none;
  sigemptyset(&none);
  if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) fail_in_child(prepared, Step::signals);
  ::execve(prepared.path.c_str(), prepared.argv.data(), prepared.envp.data());
  fail_in_child(prepared, Step::exec);
}

// The child's stack: one per thread that starts children, reused (the thread waits while its child uses it).
// Sanitizer builds use far more stack than the child's calls need.
constexpr std::size_t kChildStackBytes = 256 * 1024;
char* child_stack_top() {
  thread_local const std::unique_ptr<char[]> stack(new char[kChildStackBytes + 64]);
  // The stack grows down on every architecture Linux runs cosched on; 64-byte aligned top, kChildStackBytes below.
  const auto top = reinterpret_cast<std::uintptr_t>(stack.get() + kChildStackBytes + 64) & ~std::uintptr_t{63};
  return reinterpret_cast<char*>(top);
}

Prepared prepare(const ChildSpec& spec) {
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
  prepared.stdin_fd = UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (prepared.stdin_fd.get() < 0) throw RuntimeFailure(fmt::format("open /dev/null: {}", std::strerror(errno)));
  prepared.stdout_fd = open_output(spec.stdout_path);
  prepared.stderr_fd = open_output(spec.stderr_path);
  prepared.parent = ::getpid();
  return prepared;
}

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

// waitid for `pid`, retried on EINTR.
bool wait_for(pid_t pid, siginfo_t& info, int options) {
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, options) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

}  // namespace

std::string ExitInfo::describe() const {
  if (signal != 0) return fmt::format("signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit {}", exit_code);
}

std::filesystem::path resolve_executable(const std::string& name) {
  if (name.empty()) throw InputError("", "empty command");
  if (name.find('/') != std::string::npos) {
    std::error_code error;
    if (std::filesystem::is_directory(name, error)) throw InputError(bounded_echo(name), "is a folder, not a program");
    if (::access(name.c_str(), X_OK) != 0) throw InputError(bounded_echo(name), "not an executable file");
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
  throw InputError(bounded_echo(name), "command not found in PATH");
}

ChildProcess ChildProcess::spawn(const ChildSpec& spec) {
  if (spec.argv.empty()) throw InputError("", "a task needs a command");
  if (spec.pus.empty()) throw RuntimeFailure("a task must be bound to at least one PU");
  const auto begin = std::chrono::steady_clock::now();
  Prepared prepared = prepare(spec);
  // Before the child exists: a child whose weights conflict with a running one's never starts.
  std::unique_ptr<platform::InterleaveWeightsLease> weights;
  if (!spec.interleave_weights.empty()) {
    weights = std::make_unique<platform::InterleaveWeightsLease>(spec.interleave_weights);
  }
  std::unique_ptr<ProcessTree> tree = tree_containment(spec.containment).open_tree();
  prepared.join_fd = tree->join_fd();
  detail::WatchSlot watch = detail::WatchSlot::reserve();
  prepared.watch = &watch;

  // Every signal blocked around clone: no handler of ours may run in the child while it shares our memory.
  sigset_t all, previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, &previous);
  const detail::VforkResult started = detail::clone_vfork(run_child, &prepared, child_stack_top(), kChildStackBytes,
                                                          tree->cgroup_fd(), prepared.how);
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  const pid_t pid = started.pid;
  const int pidfd = started.pidfd;
  if (pid < 0) {
    tree->release();
    throw PlatformError("clone", "cannot start task " + spec.argv.front(), started.error);
  }
  // The child has exec'd or exited: CLONE_VFORK returns only then.
  ChildProcess child(pid, pidfd, std::move(tree), std::move(watch));
  child.tree_->adopt(pid);
  if (prepared.failed_step != Step::none) {
    const Step step = prepared.failed_step;
    const int error = prepared.failed_errno;
    (void)child.reap();  // it exited 127 before exec; the destructor has nothing left to do
    throw RuntimeFailure(fmt::format("cannot start {}: {} failed: {}", spec.argv.front(), step_name(step),
                                     std::strerror(error)));
  }
  child.overhead_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  child.weights_ = std::move(weights);
  return child;
}

ChildProcess::ChildProcess(int pid, int pidfd, std::unique_ptr<ProcessTree> tree, detail::WatchSlot watch)
    : pid_(pid),
      pidfd_(pidfd),
      tree_(std::move(tree)),
      watch_(std::make_unique<detail::WatchSlot>(std::move(watch))) {}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      pidfd_(std::exchange(other.pidfd_, -1)),
      overhead_s_(other.overhead_s_),
      reaped_(std::exchange(other.reaped_, true)),
      weights_(std::move(other.weights_)),
      tree_(std::move(other.tree_)),
      watch_(std::move(other.watch_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    close_and_forget();
    pid_ = std::exchange(other.pid_, -1);
    pidfd_ = std::exchange(other.pidfd_, -1);
    overhead_s_ = other.overhead_s_;
    reaped_ = std::exchange(other.reaped_, true);
    weights_ = std::move(other.weights_);
    tree_ = std::move(other.tree_);
    watch_ = std::move(other.watch_);
  }
  return *this;
}

ChildProcess::~ChildProcess() { close_and_forget(); }

void ChildProcess::close_and_forget() noexcept {
  if (pid_ > 0 && !reaped_) {
    if (tree_) tree_->kill_all();
    ::kill(pid_, SIGKILL);
    if (watch_) watch_->release();
    siginfo_t info{};
    (void)wait_for(pid_, info, WEXITED);
  }
  if (watch_) watch_->release();
  watch_.reset();
  if (tree_) tree_->release();
  tree_.reset();
  if (pidfd_ >= 0) ::close(pidfd_);
  pid_ = -1;
  pidfd_ = -1;
  reaped_ = true;
  weights_.reset();
}

void ChildProcess::signal_tree(int signal) const {
  if (pid_ <= 0 || reaped_ || !tree_) return;
  tree_->signal(signal);
}

ExitInfo ChildProcess::end_tree(const siginfo_t& exited) {
  // The leader is a zombie: its pid, which names the process group, cannot be reused until it is reaped below.
  tree_->kill_all();
  watch_->release();  // nothing left for the watchdog to kill
  siginfo_t reaped{};
  if (!wait_for(pid_, reaped, WEXITED)) throw PlatformError("waitid", fmt::format("task process {}", pid_), errno);
  reaped_ = true;
  weights_.reset();
  tree_->release();
  return exit_info_of(exited);
}

std::optional<ExitInfo> ChildProcess::try_reap() {
  if (reaped_) return std::nullopt;
  siginfo_t info{};
  if (!wait_for(pid_, info, WEXITED | WNOHANG | WNOWAIT)) {
    throw PlatformError("waitid", fmt::format("task process {}", pid_), errno);
  }
  if (info.si_pid == 0) return std::nullopt;
  return end_tree(info);
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

std::optional<ExitInfo> ChildProcess::reap_or_stop(std::optional<double> seconds, double grace_s) {
  if (!seconds) return reap();
  if (std::optional<ExitInfo> exit = reap_within(*seconds)) return exit;
  signal_tree(SIGTERM);
  if (!reap_within(grace_s)) {
    signal_tree(SIGKILL);
    (void)reap();
  }
  return std::nullopt;
}

ExitInfo ChildProcess::reap() {
  if (reaped_) throw RuntimeFailure(fmt::format("task process {} was already reaped", pid_));
  siginfo_t info{};
  if (!wait_for(pid_, info, WEXITED | WNOWAIT)) throw PlatformError("waitid", fmt::format("task process {}", pid_), errno);
  return end_tree(info);
}

}  // namespace cosched::exec
