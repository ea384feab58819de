// The two containments of a task's process tree (process_tree.hpp) and their table.
#include "cosched/exec/process_tree.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>

#include "cosched/common/error.hpp"
#include "tree_watchdog.hpp"
#include "unique_fd.hpp"

namespace cosched::exec {

namespace {

// ---- process-group ----------------------------------------------------------------------------------------------

class GroupTree final : public ProcessTree {
 public:
  [[nodiscard]] int cgroup_fd() const noexcept override { return -1; }
  [[nodiscard]] int join_fd() const noexcept override { return -1; }
  void adopt(pid_t leader) override { group_ = leader; }
  void signal(int signal) noexcept override {
    if (group_ > 0) ::kill(-group_, signal);
  }
  void kill_all() noexcept override { signal(SIGKILL); }
  void release() noexcept override { group_ = -1; }

 private:
  pid_t group_ = -1;
};

class ProcessGroupContainment final : public TreeContainment {
 public:
  ProcessGroupContainment()
      : TreeContainment("process-group", "the task's own process group; a process that leaves it on purpose "
                                         "(setsid) escapes",
                        false) {}
  [[nodiscard]] std::optional<std::string> unavailable_because() const override { return std::nullopt; }
  [[nodiscard]] std::unique_ptr<ProcessTree> open_tree() const override { return std::make_unique<GroupTree>(); }
};

// ---- cgroup -----------------------------------------------------------------------------------------------------

using detail::UniqueFd;

// How long release() waits for a killed tree to leave its cgroup before leaving the folder to the watchdog.
constexpr int kEmptyWaitMs = 2000;

class CgroupTree final : public ProcessTree {
 public:
  CgroupTree(std::filesystem::path dir, UniqueFd folder, UniqueFd procs, UniqueFd kill)
      : dir_(std::move(dir)), folder_(std::move(folder)), procs_(std::move(procs)), kill_(std::move(kill)) {}
  ~CgroupTree() override { release(); }

  [[nodiscard]] int cgroup_fd() const noexcept override { return folder_.get(); }
  [[nodiscard]] int join_fd() const noexcept override { return procs_.get(); }
  void adopt(pid_t) override {}
  void signal(int signal) noexcept override {
    if (signal == SIGKILL) {
      kill_all();
      return;
    }
    // Every member, whatever its process group; the list is a snapshot, so a process started meanwhile is
    // missed — what matters most, SIGKILL, goes through cgroup.kill, which misses none.
    std::ifstream members(dir_ / "cgroup.procs");
    for (pid_t pid = 0; members >> pid;) ::kill(pid, signal);
  }
  void kill_all() noexcept override {
    if (kill_.get() < 0) return;
    [[maybe_unused]] const ssize_t n = ::write(kill_.get(), "1", 1);
  }
  void release() noexcept override {
    if (dir_.empty()) return;
    // Killed processes leave the cgroup as they exit; until then rmdir says EBUSY. Wait for "populated 0" (the
    // kernel signals cgroup.events with POLLPRI), within a bound: a process stuck in the kernel must not stall the
    // launcher — its empty folder is then removed by the watchdog when this process ends.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kEmptyWaitMs);
    UniqueFd events(::open((dir_ / "cgroup.events").c_str(), O_RDONLY | O_CLOEXEC));
    while (::rmdir(dir_.c_str()) != 0 && errno == EBUSY && events.get() >= 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) break;
      pollfd watch{events.get(), POLLPRI, 0};
      (void)::poll(&watch, 1, static_cast<int>(std::min<long long>(left, 50)));
    }
    dir_.clear();
  }

 private:
  std::filesystem::path dir_;
  UniqueFd folder_, procs_, kill_;
};

class CgroupContainment final : public TreeContainment {
 public:
  CgroupContainment()
      : TreeContainment("cgroup", "a cgroup v2 per task, ended with cgroup.kill; holds daemons that leave the "
                                  "process group",
                        true) {}

  [[nodiscard]] std::optional<std::string> unavailable_because() const override {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (probed_for_ != ::getpid()) {
      reason_ = probe();
      probed_for_ = ::getpid();
    }
    return reason_;
  }

  [[nodiscard]] std::unique_ptr<ProcessTree> open_tree() const override {
    if (const auto why = unavailable_because()) throw ResourceError("cgroup containment unavailable: " + *why);
    // The watchdog removes this process's cgroups when it ends; it must exist before the first one does — the
    // folder of this process's task cgroups included, so that folder is made here and not by the probe (a process
    // that only asks, a dry run, would leave it behind). Concurrent calls may both make it: EEXIST is fine, and
    // nothing removes it while this process lives (the probe, which runs before any tree of this pid is opened,
    // removes only the folder it made itself).
    detail::ensure_watchdog();
    const std::filesystem::path root = *detail::task_cgroup_root();
    if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST) {
      const int error = errno;
      throw PlatformError("mkdir", fmt::format("cannot make the folder of its task cgroups {}", root.string()), error);
    }
    const std::filesystem::path dir = root / fmt::format("task-{}", next_.fetch_add(1));
    if (::mkdir(dir.c_str(), 0755) != 0) {
      throw PlatformError("mkdir", fmt::format("cannot make the task's cgroup {}", dir.string()), errno);
    }
    UniqueFd folder(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    UniqueFd procs(::open((dir / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
    UniqueFd kill(::open((dir / "cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC));
    if (folder.get() < 0 || procs.get() < 0 || kill.get() < 0) {
      const int error = errno;
      ::rmdir(dir.c_str());
      throw PlatformError("open", fmt::format("cannot open the controls of the task's cgroup {}", dir.string()), error);
    }
    return std::make_unique<CgroupTree>(dir, std::move(folder), std::move(procs), std::move(kill));
  }

 private:
  // Why this process cannot contain its tasks in cgroups, or nullopt. Leaves nothing behind: only the watchdog,
  // started by open_tree, removes this process's cgroups when it ends, and a process may ask without ever opening
  // a tree.
  static std::optional<std::string> probe() {
    const auto own = detail::own_cgroup();
    if (!own) return "no cgroup v2 hierarchy is mounted (cgroup v1 only, or none)";
    // Moving a process between two cgroups needs write access to cgroup.procs of their common ancestor: ours.
    if (::access((*own / "cgroup.procs").c_str(), W_OK) != 0) {
      return fmt::format("this process may not move processes out of its cgroup {} (not root, not delegated)",
                         own->string());
    }
    // Whether we may make cgroups here and a new one has cgroup.kill (our own cgroup may be the root one, which has
    // none): tried on the folder of this process's task cgroups, which is then removed again — it is empty, as the
    // probe runs before any tree of this pid is opened (open_tree asks first; a forked child probes for its own
    // pid). A folder that already exists is not ours to remove: a dead process with the same pid left it.
    const std::filesystem::path root = *detail::task_cgroup_root();
    const bool made = ::mkdir(root.c_str(), 0755) == 0;
    if (!made && errno != EEXIST) {
      return fmt::format("cannot make cgroup {}: {}", root.string(), std::strerror(errno));
    }
    const bool killable = ::access((root / "cgroup.kill").c_str(), W_OK) == 0;
    if (made) ::rmdir(root.c_str());
    if (!killable) return "the kernel has no cgroup.kill (Linux >= 5.14 needed)";
    return std::nullopt;
  }

  mutable std::mutex mutex_;
  mutable pid_t probed_for_ = 0;  // the process the probe was made for (a forked child probes again)
  mutable std::optional<std::string> reason_;
  mutable std::atomic<unsigned long> next_{0};
};

const ProcessGroupContainment kProcessGroup;
const CgroupContainment kCgroup;
const std::array<const TreeContainment*, 2> kContainments{&kCgroup, &kProcessGroup};  // auto tries them in order

}  // namespace

const TreeContainment& tree_containment(std::string_view name) {
  if (name == kStrongestTreeContainment) {
    for (const TreeContainment* containment : kContainments) {
      if (!containment->unavailable_because()) return *containment;
    }
  }
  for (const TreeContainment* containment : kContainments) {
    if (containment->name() != name) continue;
    if (const auto why = containment->unavailable_because()) {
      throw ResourceError(fmt::format("process-tree containment {} is not available here: {}", name, *why));
    }
    return *containment;
  }
  throw UsageError(fmt::format("unknown process-tree containment '{}' (known: {})", name,
                               fmt::join(tree_containment_names(), ", ")));
}

std::vector<std::string> tree_containment_names() {
  std::vector<std::string> names;
  for (const TreeContainment* containment : kContainments) names.emplace_back(containment->name());
  names.emplace_back(kStrongestTreeContainment);
  return names;
}

}  // namespace cosched::exec
