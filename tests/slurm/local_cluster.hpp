#pragma once
// The Slurm tests' view of the local cluster (docs/slurm-local.md): ctest's fixture `slurm_cluster_start` starts it
// with scripts/local-slurm.sh (3 nodes, in the build folder) and `slurm_cluster_stop` always stops it. The tests
// run real Slurm commands against it with SLURM_CONF set; when there is no cluster (the fixture skipped: no root,
// or the Slurm packages are missing) they skip, saying why.
#include <gtest/gtest.h>
#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/programs.hpp"

namespace cosched::slurm_test {

namespace fs = std::filesystem;
using test_support::CommandResult;

// The cluster folder: $COSCHED_SLURM_DIR (ctest sets it; set it to run slurm_tests against a cluster of your own),
// else the one the ctest fixture uses.
[[nodiscard]] fs::path cluster_dir();

// Why the tests cannot use the cluster ("" when they can: it answers and has at least `nodes` idle nodes).
[[nodiscard]] std::string cluster_unavailable(int nodes);

// The cluster's node names in Slurm's order (`scontrol show hostnames`): an allocation of all of them lists them
// so, and plan node k runs on the k-th.
[[nodiscard]] std::vector<std::string> cluster_hosts();

// `command_line` (shell words; its first word a program, e.g. `salloc ...`) run in `dir` with the cluster's
// SLURM_CONF, ended after `timeout_s`.
[[nodiscard]] CommandResult run_in_cluster(const std::string& command_line, const fs::path& dir, int timeout_s);

// "Job.Step" of the running job step whose node list is exactly `node` ("" when there is none).
[[nodiscard]] std::string running_step_on(const std::string& node);

// The shell words of the built `cosched`, `scripts/local-slurm.sh`.
[[nodiscard]] std::string cosched_program();
[[nodiscard]] std::string harness_script();

// A command running in the background (its own process group, stdout/stderr to files in `dir`). The destructor
// SIGKILLs the group if it still runs, so a failing test leaves nothing behind.
class BackgroundCommand {
 public:
  BackgroundCommand(const std::string& command_line, const fs::path& dir);
  ~BackgroundCommand();
  BackgroundCommand(const BackgroundCommand&) = delete;
  BackgroundCommand& operator=(const BackgroundCommand&) = delete;

  // Its exit code once it ends, waiting at most `timeout_s`: -1 when a signal ended it, -2 when it still runs.
  [[nodiscard]] int wait(int timeout_s);
  [[nodiscard]] bool running();
  [[nodiscard]] std::string output() const;

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  fs::path out_;
};

// Waits (polling, at most `timeout_s`) until `condition()` holds; false when it never did.
template <typename Condition>
bool eventually(Condition condition, int timeout_s) {
  for (int tick = 0; tick < timeout_s * 50; ++tick) {
    if (condition()) return true;
    ::usleep(20000);
  }
  return condition();
}

}  // namespace cosched::slurm_test

// Skips the test, with the reason, unless the local cluster has `nodes` idle nodes.
#define COSCHED_REQUIRE_SLURM_CLUSTER(nodes)                                                          \
  if (const std::string why_unavailable = ::cosched::slurm_test::cluster_unavailable(nodes);           \
      !why_unavailable.empty())                                                                         \
  GTEST_SKIP() << why_unavailable
