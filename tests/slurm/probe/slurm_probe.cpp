// slurm_probe: the task the Slurm tests schedule (tests/slurm). It waits --ms milliseconds, then appends one line
//   <id> <SLURMD_NODENAME> <SLURM_JOB_ID> <SLURM_STEP_ID> <its CPUs>
// to --record with a single O_APPEND write (tasks on several nodes share the file), so the file says which task
// completed, how often, and on which Slurm node and step.
//
// --hold-on NODE --gate FILE: on NODE, only the first task to get there completes; every later one leaves
// FILE.held-<id> and waits until FILE exists (at most 120 s, then exit 3). A test can thus end a node's step while
// that node certainly has unfinished tasks, without guessing durations. Exit 2: bad arguments.
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace {

struct ProbeOptions {
  std::string id;
  std::string record;
  int ms = 0;
  std::string hold_on;
  std::string gate;
};

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "-" : value;
}

// The CPUs this process may run on, e.g. "0,1".
std::string allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return "?";
  std::string cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus += (cpus.empty() ? "" : ",") + std::to_string(cpu);
  }
  return cpus;
}

// True when this task may complete: it is not held, or it is the first on the held node, or the gate opened.
bool wait_for_turn(const ProbeOptions& options) {
  if (options.hold_on.empty() || environment("SLURMD_NODENAME") != options.hold_on) return true;
  const std::string first = options.gate + ".first";
  const int token = ::open(first.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (token >= 0) {
    ::close(token);
    return true;
  }
  const std::string held = options.gate + ".held-" + options.id;
  ::close(::open(held.c_str(), O_WRONLY | O_CREAT, 0644));
  for (int tick = 0; tick < 120 * 50; ++tick) {
    if (std::filesystem::exists(options.gate)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

bool parse(int argc, char** argv, ProbeOptions& options) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--id") {
      options.id = value;
    } else if (flag == "--record") {
      options.record = value;
    } else if (flag == "--ms") {
      options.ms = std::atoi(value.c_str());
    } else if (flag == "--hold-on") {
      options.hold_on = value;
    } else if (flag == "--gate") {
      options.gate = value;
    } else {
      return false;
    }
  }
  return argc % 2 == 1 && !options.id.empty() && !options.record.empty() &&
         options.hold_on.empty() == options.gate.empty();
}

}  // namespace

int main(int argc, char** argv) {
  ProbeOptions options;
  if (!parse(argc, argv, options)) return 2;
  std::this_thread::sleep_for(std::chrono::milliseconds(options.ms));
  if (!wait_for_turn(options)) return 3;
  const std::string line = options.id + " " + environment("SLURMD_NODENAME") + " " + environment("SLURM_JOB_ID") +
                           " " + environment("SLURM_STEP_ID") + " " + allowed_cpus() + "\n";
  const int fd = ::open(options.record.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) return 1;
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  return written ? 0 : 1;
}
