// Task ids name the task's log files; they are checked again where the files are named, so that no id — however
// a workload was read — ever writes outside the log folder.
#include <gtest/gtest.h>

#include <string>

#include "cosched/common/error.hpp"
#include "cosched/exec/task_command.hpp"

namespace cosched::exec {
namespace {

using config::Workload;
using config::WorkloadTask;

platform::Grant one_core() {
  platform::Grant grant;
  grant.amounts = {1};
  grant.cores.cores = {0};
  grant.cores.pus = {{0}};
  return grant;
}

WorkloadTask command_task(const std::string& id) {
  WorkloadTask task;
  task.id = id;
  task.command = {"/bin/true"};
  return task;
}

TEST(TaskLogs, ASafeIdNamesItsFilesInsideTheLogFolder) {
  TierSetup tier;
  const TaskLaunch launch = build_task_launch(command_task("triad-96MiB-0"), one_core(), tier, "", TaskLogs("/logs"));
  EXPECT_EQ(launch.spec.stdout_path, "/logs/triad-96MiB-0.out");
  EXPECT_EQ(launch.spec.stderr_path, "/logs/triad-96MiB-0.err");
}

TEST(TaskLogs, AnIdThatWouldEscapeTheLogFolderIsRefused) {
  TierSetup tier;
  for (const char* id : {"../evil", "a/b", "/etc/passwd", ".hidden", "", "-rf"}) {
    EXPECT_THROW((void)build_task_launch(command_task(id), one_core(), tier, "", TaskLogs("/logs")), InputError) << id;
  }
}

TEST(TaskLogs, EachAttemptHasItsOwnFiles) {
  // A task resumed after a failure writes new files; the first attempt's stay as they were (issue 27, item 6).
  TierSetup tier;
  const TaskLaunch first = build_task_launch(command_task("k2"), one_core(), tier, "", TaskLogs("/logs", 1));
  const TaskLaunch second = build_task_launch(command_task("k2"), one_core(), tier, "", TaskLogs("/logs", 2));
  EXPECT_EQ(first.spec.stderr_path, "/logs/k2.err");
  EXPECT_EQ(second.spec.stdout_path, "/logs/k2@attempt2.out");
  EXPECT_EQ(second.spec.stderr_path, "/logs/k2@attempt2.err");
}

TEST(TaskLogs, NoAttemptOfATaskWritesAnotherTasksFiles) {
  // "k2.attempt2" is a valid id: its first attempt's files must not be task k2's second attempt's (a resume of k2
  // overwrote k2.attempt2's stderr when attempts were named <id>.attempt<k>).
  TierSetup tier;
  const TaskLaunch k2_again = build_task_launch(command_task("k2"), one_core(), tier, "", TaskLogs("/logs", 2));
  const TaskLaunch other = build_task_launch(command_task("k2.attempt2"), one_core(), tier, "", TaskLogs("/logs", 1));
  EXPECT_NE(k2_again.spec.stdout_path, other.spec.stdout_path);
  EXPECT_NE(k2_again.spec.stderr_path, other.spec.stderr_path);
  EXPECT_EQ(other.spec.stderr_path, "/logs/k2.attempt2.err");
}

TEST(TaskLogs, WithoutALogFolderNoFileIsNamed) {
  TierSetup tier;
  const TaskLaunch launch = build_task_launch(command_task("../evil"), one_core(), tier, "", TaskLogs());
  EXPECT_TRUE(launch.spec.stdout_path.empty());
}

}  // namespace
}  // namespace cosched::exec
