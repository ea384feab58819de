#include "local_cluster.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "support/files.hpp"

namespace cosched::slurm_test {

namespace {

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace

fs::path cluster_dir() {
  const char* dir = std::getenv("COSCHED_SLURM_DIR");
  return dir != nullptr && *dir != '\0' ? fs::path(dir) : fs::path(COSCHED_SLURM_CLUSTER_DIR);
}

std::string cosched_program() { return quoted(test_support::built_program("cosched")); }

std::string harness_script() { return quoted(fs::path(COSCHED_SOURCE_DIR) / "scripts" / "local-slurm.sh"); }

CommandResult run_in_cluster(const std::string& command_line, const fs::path& dir, int timeout_s) {
  return test_support::run_shell("env SLURM_CONF=" + quoted(cluster_dir() / "slurm.conf") + " " + command_line, dir,
                                 timeout_s);
}

std::string cluster_unavailable(int nodes) {
  const fs::path dir = cluster_dir();
  const std::string how = "no local Slurm cluster in " + dir.string() +
                          " (ctest's slurm_cluster_start starts one; it skips without root or the packages slurmd "
                          "slurmctld slurm-client munge — scripts/setup.sh installs them)";
  if (!fs::exists(dir / "slurm.conf") || !fs::exists(dir / "daemons")) return how;
  const CommandResult idle = run_in_cluster("sinfo -h -N -t idle -o %N", fs::temp_directory_path(), 20);
  if (idle.exit_code != 0) return how + ": sinfo failed: " + idle.err;
  const auto count = lines_of(idle.out).size();
  if (count < static_cast<std::size_t>(nodes)) {
    return "the local Slurm cluster in " + dir.string() + " has " + std::to_string(count) + " idle nodes, the test " +
           "needs " + std::to_string(nodes);
  }
  return "";
}

std::vector<std::string> cluster_hosts() {
  const CommandResult hosts =
      run_in_cluster("sh -c 'scontrol show hostnames \"$(sinfo -h -o %N)\"'", fs::temp_directory_path(), 20);
  EXPECT_EQ(hosts.exit_code, 0) << hosts.err;
  return lines_of(hosts.out);
}

std::string running_step_on(const std::string& node) {
  const CommandResult steps = run_in_cluster("squeue -h -s -o '%i %N'", fs::temp_directory_path(), 20);
  for (const auto& line : lines_of(steps.out)) {
    std::istringstream words(line);
    std::string step, nodes;
    words >> step >> nodes;
    if (nodes == node) return step;
  }
  return "";
}

BackgroundCommand::BackgroundCommand(const std::string& command_line, const fs::path& dir)
    : out_(dir / ("background-" + std::to_string(::getpid()) + ".txt")) {
  const std::string shell = "cd " + quoted(dir) + " && exec env SLURM_CONF=" + quoted(cluster_dir() / "slurm.conf") +
                            " " + command_line + " >" + quoted(out_) + " 2>&1";
  pid_ = ::fork();
  if (pid_ == 0) {
    ::setpgid(0, 0);
    ::execl("/bin/sh", "sh", "-c", shell.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  EXPECT_GT(pid_, 0) << "fork failed";
}

BackgroundCommand::~BackgroundCommand() {
  if (pid_ > 0 && running()) {
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, &status_, 0);
  }
}

bool BackgroundCommand::running() {
  if (pid_ <= 0) return false;
  if (::waitpid(pid_, &status_, WNOHANG) == 0) return true;
  pid_ = -pid_;  // reaped: remember it ended (and never signal a reused pid)
  return false;
}

int BackgroundCommand::wait(int timeout_s) {
  if (!eventually([this] { return !running(); }, timeout_s)) return -2;
  return WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
}

std::string BackgroundCommand::output() const { return test_support::read_text(out_); }

}  // namespace cosched::slurm_test
