// One writer per journal (issue 27, item 1): the lock is the kernel's (flock on the journal itself), so a second
// writer is refused at once with the holder named, a holder killed with SIGKILL leaves no stale lock, and a launch
// refused after taking the lock leaves no empty journal behind. Every launch path (launch, --resume, online
// --launch, a Slurm node's step) goes through launcher::launch, which takes this lock first.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cosched/common/host.hpp"
#include "cosched/common/error.hpp"
#include "cosched/launcher/journal/file.hpp"
#include "cosched/launcher/journal/lock.hpp"
#include "cosched/launcher/journal/recorder.hpp"
#include "cosched/launcher/launch.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

// The message of the UsageError a second acquire throws ("" when it does not throw one).
std::string refusal(const std::filesystem::path& path) {
  try {
    (void)JournalLock::acquire(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(JournalLock, ASecondWriterIsRefusedNamingTheHoldersPidAndHost) {
  const auto path = testing::scratch_dir() / "run.jsonl";
  const JournalLock held = JournalLock::acquire(path);
  const std::string message = refusal(path);
  EXPECT_NE(message.find("is in use"), std::string::npos) << message;
  EXPECT_NE(message.find("pid " + std::to_string(::getpid())), std::string::npos) << message;
  EXPECT_NE(message.find("host " + host_name()), std::string::npos) << message;
  EXPECT_EQ(flock_holder(held.fd()), ::getpid());
}

TEST(JournalLock, AHolderKilledWithSigkillLeavesNoStaleLock) {
  const auto path = testing::scratch_dir() / "run.jsonl";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t holder = ::fork();
  if (holder == 0) {
    JournalLock lock = JournalLock::acquire(path);
    lock.keep();
    [[maybe_unused]] const ssize_t n = ::write(ready[1], "x", 1);
    ::pause();
    ::_exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  EXPECT_NE(refusal(path).find("pid " + std::to_string(holder)), std::string::npos);
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
  EXPECT_NO_THROW((void)JournalLock::acquire(path)) << "the dead holder's lock outlived it";
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST(JournalLock, ALockThatCreatedTheJournalAndWroteNothingRemovesIt) {
  const auto dir = testing::scratch_dir();
  { const JournalLock refused_later = JournalLock::acquire(dir / "new.jsonl"); }
  EXPECT_FALSE(std::filesystem::exists(dir / "new.jsonl"));
  {
    JournalWriter journal(JournalLock::acquire(dir / "kept.jsonl"));
    journal.append(BatchEnd{});
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "kept.jsonl"));
  // An existing journal is never removed, even empty.
  test_support::write_file(dir / "old.jsonl", "");
  { const JournalLock lock = JournalLock::acquire(dir / "old.jsonl"); }
  EXPECT_TRUE(std::filesystem::exists(dir / "old.jsonl"));
}

TEST(JournalLock, ALaunchOfAJournalInUseIsRefusedBeforeItReadsOrWritesAnything) {
  const auto dir = testing::scratch_dir();
  sim::LaunchPlan plan;
  plan.algorithm = "test";
  plan.resource_names = {"cores"};
  plan.capacities = {1};
  plan.tasks.push_back({"a", {1}, 0.0, 0.01, -1});
  config::Workload workload;
  config::WorkloadTask task;
  task.id = "a";
  task.command = {"/bin/true"};
  workload.tasks.push_back(task);
  LaunchSettings settings;
  settings.journal = dir / "run.jsonl";
  settings.clock.catch_stop_signals = false;
  const JournalLock held = JournalLock::acquire(settings.journal);
  for (const bool resume : {false, true}) {
    settings.resume = resume;
    settings.force = !resume;
    EXPECT_THROW((void)launch(plan, workload, settings), UsageError) << (resume ? "--resume" : "--force");
  }
  EXPECT_EQ(std::filesystem::file_size(settings.journal), 0U);
  EXPECT_FALSE(std::filesystem::exists(dir / "run.jsonl.logs"));
}

}  // namespace
}  // namespace cosched::launcher
