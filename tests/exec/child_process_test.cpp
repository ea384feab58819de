// Child processes: exit codes and signals are recorded, a command that cannot start is an error naming the step,
// the child runs bound to exactly its PUs, and a running child is killed and reaped when dropped.
#include "cosched/exec/child_process.hpp"

#include <signal.h>

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/topology.hpp"
#include "test_support.hpp"

namespace cosched::exec {
namespace {

std::vector<unsigned> first_pu() { return {platform::allowed_pus().front()}; }

TEST(ChildProcess, RecordsExitCodes) {
  ChildProcess ok = ChildProcess::spawn({{"/bin/true"}, first_pu(), {}, {}, {}, {}, {}});
  EXPECT_TRUE(ok.reap().ok());
  ChildProcess fails = ChildProcess::spawn({{"false"}, first_pu(), {}, {}, {}, {}, {}});  // found in PATH
  const ExitInfo exit = fails.reap();
  EXPECT_EQ(exit.exit_code, 1);
  EXPECT_EQ(exit.signal, 0);
  EXPECT_EQ(exit.describe(), "exit 1");
}

TEST(ChildProcess, RecordsTheSignalThatEndedIt) {
  ChildProcess child = ChildProcess::spawn({{"/bin/sleep", "30"}, first_pu(), {}, {}, {}, {}, {}});
  child.signal_tree(SIGTERM);
  const ExitInfo exit = child.reap();
  EXPECT_EQ(exit.signal, SIGTERM);
  EXPECT_FALSE(exit.ok());
}

// A run past its deadline is over when reap_or_stop returns, even one that ignores SIGTERM (then SIGKILL after the
// grace); a run that ends in time is reaped as it ended.
TEST(ChildProcess, ReapOrStopEndsARunPastItsDeadlineAndReapsOneInTime) {
  ChildProcess stubborn =
      ChildProcess::spawn({{"/bin/sh", "-c", "trap '' TERM; sleep 30"}, first_pu(), {}, {}, {}, {}, {}});
  const int pid = stubborn.pid();
  EXPECT_FALSE(stubborn.reap_or_stop(0.05, 0.05).has_value());
  EXPECT_EQ(::kill(pid, 0), -1);  // reaped: no such process left
  EXPECT_THROW((void)stubborn.reap(), RuntimeFailure);  // and not reaped twice

  ChildProcess quick = ChildProcess::spawn({{"/bin/true"}, first_pu(), {}, {}, {}, {}, {}});
  const std::optional<ExitInfo> ended = quick.reap_or_stop(30.0, 2.0);
  ASSERT_TRUE(ended.has_value());
  EXPECT_TRUE(ended->ok());
  ChildProcess unlimited = ChildProcess::spawn({{"false"}, first_pu(), {}, {}, {}, {}, {}});
  const std::optional<ExitInfo> failed = unlimited.reap_or_stop(std::nullopt, 2.0);
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->exit_code, 1);
}

TEST(ChildProcess, ACommandThatCannotStartIsAnError) {
  EXPECT_THROW((void)ChildProcess::spawn({{"/nonexistent/program"}, first_pu(), {}, {}, {}, {}, {}}), InputError);
  EXPECT_THROW((void)ChildProcess::spawn({{"no-such-command-cosched"}, first_pu(), {}, {}, {}, {}, {}}), InputError);
  EXPECT_THROW((void)ChildProcess::spawn({{}, first_pu(), {}, {}, {}, {}, {}}), InputError);
  EXPECT_THROW((void)ChildProcess::spawn({{"/bin/true"}, {}, {}, {}, {}, {}, {}}), RuntimeFailure);
}

TEST(ChildProcess, ABindingTheKernelRefusesIsAnErrorNotAnUnboundTask) {
  // A PU this machine does not have: sched_setaffinity fails in the child and the task never runs.
  try {
    (void)ChildProcess::spawn({{"/bin/true"}, {1000}, {}, {}, {}, {}, {}});
    FAIL() << "expected RuntimeFailure";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("sched_setaffinity"), std::string::npos) << e.what();
  }
}

TEST(ChildProcess, RunsBoundToExactlyItsPus) {
  const auto dir = testing::scratch_dir("child-binding");
  for (const auto& core : platform::allowed_cores()) {
    ChildProcess child = ChildProcess::spawn({{"/bin/grep", "Cpus_allowed_list", "/proc/self/status"}, core, {},
                                              dir / "out.txt", {}, {}, {}});
    ASSERT_TRUE(child.reap().ok());
    std::ifstream in(dir / "out.txt");
    std::string key, value;
    in >> key >> value;
    EXPECT_EQ(value, platform::to_range_text(core));
  }
}

TEST(ChildProcess, DroppingARunningChildKillsAndReapsIt) {
  int pid = -1;
  {
    ChildProcess child = ChildProcess::spawn({{"/bin/sleep", "30"}, first_pu(), {}, {}, {}, {}, {}});
    pid = child.pid();
    EXPECT_GT(child.launch_overhead_s(), 0.0);
  }
  EXPECT_NE(::kill(pid, 0), 0);  // gone and reaped: no such process
}

}  // namespace
}  // namespace cosched::exec
