// Reading schedules for a launch, and turning a task + its grant into a command (workloads: tests/config).
#include <gtest/gtest.h>

#include <fstream>

#include "cosched/common/error.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/exec/task_command.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

std::filesystem::path write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const auto path = testing::scratch_dir(dir) / name;
  std::ofstream(path) << text;
  return path;
}

TEST(SchedulePlan, ReadsAPackSchedule) {
  const auto path = write_file("plan-ok", "s.json",
                               R"({"algorithm":"t-pack-ff","makespan":3,"lower_bound":2,"tasks":[)"
                               R"({"id":"a","alloc":[2,5],"start":0,"duration":1,"pack":0},)"
                               R"({"id":"b","alloc":[1,0],"start":1,"duration":2,"pack":1}]})");
  const sim::LaunchPlan plan = sim::load_schedule_plan(path, {"cores", "fast_chunks"}, {2, 20});
  ASSERT_EQ(plan.tasks.size(), 2U);
  EXPECT_TRUE(plan.is_pack());
  EXPECT_DOUBLE_EQ(plan.predicted_makespan(), 3.0);
  EXPECT_DOUBLE_EQ(plan.lower_bound, 2.0);
  EXPECT_EQ(plan.tasks[0].demand, (std::vector<int>{2, 5}));
}

TEST(SchedulePlan, RejectsWhatALaunchCannotRunNamingTheTask) {
  const auto expect_error = [](const std::string& tasks, const std::string& fragment) {
    const auto path = write_file("plan-bad", "s.json", R"({"algorithm":"x","tasks":[)" + tasks + "]}");
    try {
      (void)sim::load_schedule_plan(path, {"cores", "fast_chunks"}, {2, 20});
      ADD_FAILURE() << "accepted " << tasks;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expect_error(R"({"id":"a","alloc":[3,0],"start":0,"duration":1})", "task \"a\": alloc[0] = 3");
  expect_error(R"({"id":"a","alloc":[1,0,0],"start":0,"duration":1})", "alloc has 3 entries");
  expect_error(R"({"id":"a","alloc":[0,1],"start":0,"duration":1})", "at least one core");
  expect_error(R"({"id":"a","alloc":[1,1],"start":-1,"duration":1})", "\"start\"");
  expect_error(R"({"id":"a","alloc":[1,1],"start":0,"duration":1},{"id":"a","alloc":[1,1],"start":0,"duration":1})",
               "scheduled twice");
  expect_error(R"({"id":"a","alloc":[1,1],"start":0,"duration":1,"pack":0},{"id":"b","alloc":[1,1],"start":0,"duration":1})",
               "list or pack");
}

TEST(SchedulePlan, RemainingPlanDropsDoneTasksAndShiftsStarts) {
  sim::LaunchPlan plan;
  plan.resource_names = {"cores"};
  plan.capacities = {2};
  plan.tasks = {{"a", {1}, 0, 1, -1}, {"b", {1}, 1, 1, -1}, {"c", {1}, 2.5, 1, -1}};
  const sim::LaunchPlan rest = sim::remaining_plan(plan, {"a"});
  ASSERT_EQ(rest.tasks.size(), 2U);
  EXPECT_DOUBLE_EQ(rest.tasks[0].planned_start, 0.0);
  EXPECT_DOUBLE_EQ(rest.tasks[1].planned_start, 1.5);
}

platform::Grant two_core_grant(std::size_t chunks) {
  platform::Grant grant;
  grant.amounts = {2, static_cast<int>(chunks)};
  grant.cores.cores = {1, 3};
  grant.cores.pus = {{1}, {3}};
  grant.fast_chunks = chunks;
  return grant;
}

TEST(TaskCommand, StreamTasksGetTheirCoresFootprintPassesAndFastFraction) {
  // Cores reach stream_bench through the binding (spec.pus), not its argv: see stream_argv.
  config::WorkloadTask task;
  task.id = "triad-96MiB-0";
  task.kernel = "triad";
  task.footprint_bytes = 96ULL << 20;
  task.passes = 7;
  exec::TierSetup tier;
  tier.backend = "emulated";
  tier.chunk_bytes = 16.0 * (1 << 20);
  const exec::TaskLaunch launch = exec::build_task_launch(task, two_core_grant(3), tier, "/x/stream_bench", "/logs");
  const std::vector<std::string> expected{
      "/x/stream_bench", "--kernel", "triad", "--threads", "2", "--size-mib", "32", "--reps", "7",
      "--warmup", "0", "--json", "--fast-fraction", "0.5", "--tier-backend", "emulated", "--emulation-ratio", "5"};
  EXPECT_EQ(launch.spec.argv, expected);
  EXPECT_EQ(launch.fast_bytes, 48U << 20);
  EXPECT_EQ(launch.spec.pus, (std::vector<unsigned>{1, 3}));
  EXPECT_EQ(launch.spec.stdout_path, "/logs/triad-96MiB-0.out");
  EXPECT_NE(launch.placement.find("EMULATED"), std::string::npos);
  // More chunks than the footprint: capped at all of it.
  EXPECT_EQ(exec::build_task_launch(task, two_core_grant(20), tier, "/x/sb", "").fast_bytes, 96U << 20);
}

TEST(TaskCommand, CommandsOnTheEmulatedTierAreToldTheirShareButGetNoPolicy) {
  config::WorkloadTask task;
  task.id = "cmd";
  task.command = {"prog", "--threads={threads}", "{cpuset}", "{cores}", "{fast_bytes}"};
  exec::TierSetup tier;
  tier.backend = "emulated";
  tier.chunk_bytes = 1000;
  const exec::TaskLaunch launch = exec::build_task_launch(task, two_core_grant(2), tier, "", "");
  EXPECT_EQ(launch.spec.argv, (std::vector<std::string>{"prog", "--threads=2", "1,3", "1,3", "2000"}));
  EXPECT_TRUE(launch.spec.memory.nodes.empty());
  EXPECT_NE(launch.placement.find("not applied"), std::string::npos);
}

TEST(TaskCommand, CommandsOnARealTierGetANumaPolicy) {
  config::WorkloadTask task;
  task.id = "cmd";
  task.command = {"prog"};
  exec::TierSetup tier;
  tier.backend = "numa";
  tier.chunk_bytes = 1000;
  tier.fast_nodes = {4};
  tier.slow_nodes = {0, 1};
  const exec::TaskLaunch slow = exec::build_task_launch(task, two_core_grant(0), tier, "", "");
  EXPECT_EQ(slow.spec.memory.nodes, (std::vector<unsigned>{0, 1}));
  const exec::TaskLaunch fast = exec::build_task_launch(task, two_core_grant(1), tier, "", "");
  EXPECT_EQ(fast.spec.memory.nodes, (std::vector<unsigned>{4}));
  EXPECT_NE(fast.spec.memory.mode, slow.spec.memory.mode);
}

}  // namespace
}  // namespace cosched::launcher
