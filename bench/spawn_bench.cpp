// The launcher's spawn path against a bare posix_spawn of the same child, A/B alternating in one run
// (docs/launcher.md, "Launch overhead"). Each round starts the child once each way and waits for it:
//   bare      posix_spawn(child) — glibc returns once the child has exec'd (CLONE_VFORK): the baseline
//   launcher  what WallClock::launch times per task: the task's argv and placement (exec::build_task_launch) and
//             exec::ChildProcess::spawn — own process group and tree, watchdog registration, parent-death signal,
//             binding set and read back, log files opened — until exec is confirmed
// and then, in a second phase (so as not to disturb the first), the parts of the path timed alone:
//   build     exec::build_task_launch: argv, placeholders, the fast share's placement
//   tree      opening and releasing one task's process tree (a cgroup made and removed, or nothing)
//   journal   a task's start line (written, fsynced with the next end) and end line (written and fsynced)
// --parent-mib N makes this process N MiB larger first (allocated and touched): a fork copies the page tables of
// that much, a vfork-style spawn does not. The child is bound to PU --cpu (default: the last allowed one); unless
// this process runs there too (taskset -c N), the launcher's time includes waiting for that PU — on a busy machine
// most of it. Figures: min / median / max in ms, and launcher ÷ bare of the medians.
//
//   bin/spawn_bench [--rounds 200] [--parent-mib 0] [--child /bin/true] [--containment auto] [--cpu N]
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/common/stats.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/launcher/journal/file.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/core_allocator.hpp"
#include "cosched/platform/topology.hpp"

namespace {

namespace exec = cosched::exec;
namespace launcher = cosched::launcher;
namespace platform = cosched::platform;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point begin) {
  return std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
}

struct Options {
  int rounds = 200;
  std::size_t parent_mib = 0;
  std::string child = "/bin/true";
  std::string containment = "auto";
  int cpu = -1;  // the PU the child is bound to; -1: the last allowed one
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--rounds") {
      options.rounds = std::max(1, std::atoi(value.c_str()));
    } else if (key == "--parent-mib") {
      options.parent_mib = static_cast<std::size_t>(std::max(0, std::atoi(value.c_str())));
    } else if (key == "--child") {
      options.child = value;
    } else if (key == "--containment") {
      options.containment = value;
    } else if (key == "--cpu") {
      options.cpu = std::atoi(value.c_str());
    } else {
      throw cosched::UsageError("unknown option " + key);
    }
  }
  return options;
}

double bare_spawn_ms(const Options& options) {
  std::vector<char*> argv{const_cast<char*>(options.child.c_str()), nullptr};
  const auto begin = Clock::now();
  pid_t pid = -1;
  const int error = ::posix_spawn(&pid, options.child.c_str(), nullptr, nullptr, argv.data(), environ);
  const double ms = ms_since(begin);
  if (error != 0) throw cosched::PlatformError("posix_spawn", options.child, error);
  ::waitpid(pid, nullptr, 0);
  return ms;
}

std::string row(const std::string& name, const std::vector<double>& ms) {
  const auto summary = cosched::summarize(ms);
  return fmt::format("{:<10} {:>9.3f} {:>9.3f} {:>9.3f}", name, summary.min, summary.median, summary.max);
}

int run(const Options& options) {
  // A larger launcher: its pages touched, so that a fork would have their page tables to copy.
  std::vector<char> ballast(options.parent_mib << 20);
  for (std::size_t i = 0; i < ballast.size(); i += 4096) ballast[i] = 1;

  const auto scratch = std::filesystem::temp_directory_path() / fmt::format("cosched-spawn-bench-{}", ::getpid());
  std::filesystem::create_directories(scratch);
  const std::vector<unsigned> allowed = platform::allowed_pus();
  const unsigned pu = options.cpu >= 0 ? static_cast<unsigned>(options.cpu) : allowed.back();

  cosched::config::WorkloadTask task;
  task.id = "bench";
  task.command = {options.child};
  platform::Grant grant;
  grant.amounts = {1};
  grant.cores.cores = {0};
  grant.cores.pus = {{pu}};
  const exec::TierSetup tier;  // backend none: no placement
  const exec::TaskLogs logs(scratch);
  exec::start_tree_watchdog();  // as launch() does, off the tasks' path
  const exec::TreeContainment& containment = exec::tree_containment(options.containment);

  launcher::JournalWriter journal(scratch / "journal.jsonl");
  launcher::TaskStart start_line;
  start_line.task = "bench";
  start_line.argv = {options.child};
  launcher::TaskEnd end_line;
  end_line.task = "bench";
  end_line.status = cosched::sim::TaskStatus::ok;

  std::map<std::string, std::vector<double>> ms;
  for (int round = 0; round < options.rounds; ++round) {
    // A and B alternate, and which goes first alternates too: drift in the machine's state hits both alike.
    const auto launcher_spawn = [&] {
      const auto begin = Clock::now();
      exec::TaskLaunch launch = exec::build_task_launch(task, grant, tier, {}, logs);
      launch.spec.containment = options.containment;
      exec::ChildProcess child = exec::ChildProcess::spawn(launch.spec);
      ms["launcher"].push_back(ms_since(begin));
      if (!child.reap().ok()) throw cosched::RuntimeFailure(options.child + " failed");
    };
    if (round % 2 == 0) {
      ms["bare"].push_back(bare_spawn_ms(options));
      launcher_spawn();
    } else {
      launcher_spawn();
      ms["bare"].push_back(bare_spawn_ms(options));
    }
  }
  for (int round = 0; round < options.rounds; ++round) {
    auto begin = Clock::now();
    (void)exec::build_task_launch(task, grant, tier, {}, logs);
    ms["build"].push_back(ms_since(begin));
    begin = Clock::now();
    containment.open_tree()->release();
    ms["tree"].push_back(ms_since(begin));
    begin = Clock::now();
    journal.append(start_line);
    ms["start line"].push_back(ms_since(begin));
    begin = Clock::now();
    journal.append(end_line);
    ms["end line"].push_back(ms_since(begin));
  }
  std::filesystem::remove_all(scratch);

  fmt::print("spawn_bench: {} rounds, child {} on PU {}, containment {}, parent +{} MiB\n", options.rounds,
             options.child, pu, containment.name(), options.parent_mib);
  fmt::print("{:<10} {:>9} {:>9} {:>9}   (ms)\n", "", "min", "median", "max");
  for (const char* name : {"bare", "launcher", "build", "tree", "start line", "end line"}) {
    fmt::print("{}\n", row(name, ms[name]));
  }
  fmt::print("launcher / bare (medians): {:.2f}\n", cosched::median(ms["launcher"]) / cosched::median(ms["bare"]));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const cosched::Error& e) {
    fmt::print(stderr, "spawn_bench: {}\n", e.what());
    return cosched::exit_code_for(e.kind());
  }
}
