// Real runs on the wall clock with tiny child tasks (/bin/true, /bin/false, /bin/sleep and the append task):
// statuses, crash and timeout isolation, the journal of a run, resume after the launcher is SIGKILLed, and a
// clean stop on SIGTERM. No timing thresholds: only order and status.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <thread>

#include "cosched/common/error.hpp"
#include "cosched/launcher/journal/replay.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/platform/binding.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

using Commands = std::vector<std::pair<std::string, std::vector<std::string>>>;

// A list plan over one core: tasks run one after another, in the given order, `step` seconds apart.
sim::LaunchPlan serial_plan(const Commands& commands, double step) {
  sim::LaunchPlan plan;
  plan.algorithm = "test-serial";
  plan.resource_names = {"cores"};
  plan.capacities = {1};
  for (std::size_t j = 0; j < commands.size(); ++j) {
    plan.tasks.push_back({commands[j].first, {1}, step * static_cast<double>(j), step, -1});
  }
  return plan;
}

config::Workload workload_of(const Commands& commands) {
  config::Workload workload;
  workload.source = "test";
  for (const auto& [id, argv] : commands) {
    config::WorkloadTask task;
    task.id = id;
    task.command = argv;
    workload.tasks.push_back(task);
  }
  return workload;
}

LaunchSettings settings_for(const std::filesystem::path& dir) {
  LaunchSettings settings;
  settings.journal = dir / "run.jsonl";
  settings.clock.kill_grace_s = 0.5;
  settings.clock.catch_stop_signals = false;
  return settings;
}

std::map<std::string, std::string> last_status(const std::filesystem::path& journal) {
  std::map<std::string, std::string> status;
  for (const auto& task : replay_journal(journal).tasks) {
    if (task.end) status[task.id] = to_string(task.end->status);
  }
  return status;
}

TEST(LaunchWall, RecordsOkFailedAndTimeoutAndTheBatchContinues) {
  const auto dir = testing::scratch_dir("wall-statuses");
  const Commands commands{{"ok", {"/bin/true"}}, {"fails", {"/bin/false"}}, {"slow", {"/bin/sleep", "30"}},
                          {"missing", {"/nonexistent/cosched-task"}}, {"after", {"/bin/true"}}};
  LaunchSettings settings = settings_for(dir);
  settings.clock.timeout_s = 0.3;
  const LaunchSummary summary = launch(serial_plan(commands, 0.0), workload_of(commands), settings);
  EXPECT_EQ(summary.observed.completed, 2U);
  EXPECT_EQ(summary.observed.failed, 3U);
  const auto status = last_status(settings.journal);
  EXPECT_EQ(status.at("ok"), "ok");
  EXPECT_EQ(status.at("fails"), "failed");
  EXPECT_EQ(status.at("slow"), "timeout");
  EXPECT_EQ(status.at("missing"), "failed");
  EXPECT_EQ(status.at("after"), "ok");  // the batch went on after the crash and the timeout
  // The journal: header, start/end per task in list order, footer.
  const auto events = read_journal(settings.journal).events;
  EXPECT_TRUE(std::holds_alternative<BatchStart>(events.front().event));
  ASSERT_TRUE(std::holds_alternative<BatchEnd>(events.back().event));
  EXPECT_EQ(std::get<BatchEnd>(events.back().event).tasks_completed, 2U);
  EXPECT_EQ(std::get<BatchEnd>(events.back().event).tasks_failed, 3U);
  std::vector<std::string> start_order;
  for (const auto& line : events) {
    if (const auto* start = std::get_if<TaskStart>(&line.event)) start_order.push_back(start->task);
  }
  EXPECT_EQ(start_order, (std::vector<std::string>{"ok", "fails", "slow", "missing", "after"}));
}

TEST(LaunchWall, FailFastStopsAfterTheFirstFailure) {
  const auto dir = testing::scratch_dir("wall-fail-fast");
  const Commands commands{{"a", {"/bin/true"}}, {"b", {"/bin/false"}}, {"c", {"/bin/true"}}};
  LaunchSettings settings = settings_for(dir);
  settings.engine.fail_fast = true;
  const LaunchSummary summary = launch(serial_plan(commands, 0.0), workload_of(commands), settings);
  EXPECT_TRUE(summary.observed.stopped_by_failure);
  EXPECT_EQ(summary.observed.not_started, 1U);
  EXPECT_EQ(last_status(settings.journal).count("c"), 0U);
  EXPECT_EQ(std::get<BatchEnd>(read_journal(settings.journal).events.back().event).status, BatchStatus::stopped);
}

TEST(LaunchWall, PlaceholdersAreSubstitutedWithoutAShell) {
  const auto dir = testing::scratch_dir("wall-placeholders");
  const Commands commands{{"echo", {"/bin/echo", "{threads}", "{cpuset}", "{fast_bytes}", "{unknown}"}}};
  LaunchSettings settings = settings_for(dir);
  const LaunchSummary summary = launch(serial_plan(commands, 0.0), workload_of(commands), settings);
  ASSERT_EQ(summary.observed.completed, 1U);
  std::ifstream out(dir / "run.jsonl.logs" / "echo.out");
  std::string line;
  std::getline(out, line);
  const auto pus = platform::allowed_cores().front();
  EXPECT_EQ(line, "1 " + platform::to_range_text(pus) + " 0 {unknown}");
}

TEST(LaunchWall, AnExistingJournalIsNotOverwritten) {
  const auto dir = testing::scratch_dir("wall-existing");
  const Commands commands{{"a", {"/bin/true"}}};
  const LaunchSettings settings = settings_for(dir);
  (void)launch(serial_plan(commands, 0.0), workload_of(commands), settings);
  EXPECT_THROW((void)launch(serial_plan(commands, 0.0), workload_of(commands), settings), UsageError);
}

TEST(LaunchWall, ForceReplacesAnExistingJournal) {
  const auto dir = testing::scratch_dir("wall-force");
  const Commands commands{{"a", {"/bin/true"}}};
  LaunchSettings settings = settings_for(dir);
  (void)launch(serial_plan(commands, 0.0), workload_of(commands), settings);
  settings.force = true;
  (void)launch(serial_plan(commands, 0.0), workload_of(commands), settings);
  EXPECT_EQ(replay_journal(settings.journal).segments.size(), 1U);
}

TEST(LaunchWall, BothPredictionsAreJournaledWhenThePlanHasABandwidthModel) {
  const auto dir = testing::scratch_dir("wall-contention");
  const Commands commands{{"a", {"/bin/true"}}, {"b", {"/bin/true"}}};
  sim::LaunchPlan plan = serial_plan(commands, 0.25);
  plan.bandwidth.pools = {{"dram", {1.0}, {10e9}}};
  for (sim::PlannedTask& task : plan.tasks) task.flow = {{5e9}, 1.0};
  const LaunchSummary summary = launch(plan, workload_of(commands), settings_for(dir));
  // One core: the tasks never co-run, so the contention-aware prediction is the paper model's.
  ASSERT_TRUE(summary.predicted_makespan_contention.has_value());
  EXPECT_EQ(*summary.predicted_makespan_contention, summary.predicted_makespan);
  const JournalReplay replay = replay_journal(settings_for(dir).journal);
  EXPECT_EQ(replay.segments.front().header.predicted_makespan_contention, summary.predicted_makespan_contention);
  ASSERT_EQ(replay.tasks.size(), 2U);
  EXPECT_EQ(replay.tasks[1].start->predicted_contention_start, 0.25);
  EXPECT_EQ(replay.tasks[1].start->predicted_contention_end, 0.5);
  ASSERT_EQ(summary.tasks.size(), 2U);
  EXPECT_EQ(summary.tasks[1].predicted_contention_end, 0.5);
}

// The warm-up touches the most memory the plan holds at once (the workload footprints of the tasks planned to run
// together), not only the first wave's: a alone (1 MiB), then b and c together (2 + 4 MiB), then d (5 MiB) as they
// end — 6 MiB; d is not counted with b and c, which end when it starts. It is journaled and reported; off, there is
// none. Whatever the machine: "on" does not ask whether the hypervisor reports free pages.
TEST(LaunchWall, TheMemoryWarmUpCoversThePlansPeakAndIsJournaled) {
  const auto dir = testing::scratch_dir("wall-warm-up");
  const Commands commands{{"a", {"/bin/true"}}, {"b", {"/bin/true"}}, {"c", {"/bin/true"}}, {"d", {"/bin/true"}}};
  config::Workload workload = workload_of(commands);
  workload.tasks[0].footprint_bytes = std::uint64_t{1} << 20;
  workload.tasks[1].footprint_bytes = std::uint64_t{2} << 20;
  workload.tasks[2].footprint_bytes = std::uint64_t{4} << 20;
  workload.tasks[3].footprint_bytes = std::uint64_t{5} << 20;
  sim::LaunchPlan plan = serial_plan(commands, 0.01);
  plan.capacities = {2};
  plan.tasks[2].planned_start = 0.01;  // b and c together, after a
  plan.tasks[3].planned_start = 0.02;  // d as they end
  LaunchSettings settings = settings_for(dir);
  settings.memory_warm_up = MemoryWarmUpMode::on;
  const LaunchSummary summary = launch(plan, workload, settings);
  ASSERT_TRUE(summary.memory_warm_up.has_value());
  EXPECT_EQ(summary.memory_warm_up->bytes, std::uint64_t{6} << 20);
  EXPECT_GE(summary.memory_warm_up->seconds, 0.0);
  EXPECT_NE(format_summary(summary).find("memory warm-up before the first tasks: 6 MiB"), std::string::npos)
      << format_summary(summary);
  const JournalReplay replay = replay_journal(settings.journal);
  ASSERT_TRUE(replay.segments.front().header.memory_warm_up.has_value());
  EXPECT_EQ(replay.segments.front().header.memory_warm_up->bytes, std::uint64_t{6} << 20);

  LaunchSettings off = settings_for(testing::scratch_dir("wall-warm-up-off"));
  off.memory_warm_up = MemoryWarmUpMode::off;
  EXPECT_FALSE(launch(plan, workload, off).memory_warm_up.has_value());
  EXPECT_THROW((void)parse_memory_warm_up_mode("sometimes"), UsageError);
  EXPECT_EQ(parse_memory_warm_up_mode("auto"), MemoryWarmUpMode::automatic);
}

TEST(LaunchWall, WithoutABandwidthModelOnlyThePaperModelIsJournaled) {
  const auto dir = testing::scratch_dir("wall-paper-only");
  const Commands commands{{"a", {"/bin/true"}}};
  const LaunchSummary summary = launch(serial_plan(commands, 0.0), workload_of(commands), settings_for(dir));
  EXPECT_FALSE(summary.predicted_makespan_contention.has_value());
  const JournalReplay replay = replay_journal(settings_for(dir).journal);
  EXPECT_FALSE(replay.segments.front().header.predicted_makespan_contention.has_value());
  EXPECT_FALSE(replay.tasks[0].start->predicted_contention_start.has_value());
}

// Re-plans once, when the first task ends: the last task first, then the others in their order.
class LastFirstReplanner final : public sim::Replanner {
 public:
  std::optional<sim::Replan> task_ended(std::size_t task, const sim::EngineView& view,
                                        const sim::StandingList& /*standing*/) override {
    if (task != 0) return std::nullopt;
    const std::size_t last = view.plan.tasks.size() - 1;
    sim::Replan replan{{{last, {1}, 0.25}}, "learnt: the last task is short", 0.5};
    for (std::size_t j = 1; j < last; ++j) replan.tasks.push_back({j, {1}, std::nullopt, true});
    return replan;
  }
};

TEST(LaunchWall, ARePlanIsJournaledBetweenTheEndThatMadeItAndTheStartsItMoved) {
  const auto dir = testing::scratch_dir("wall-replan");
  const Commands commands{{"a", {"/bin/true"}}, {"b", {"/bin/true"}}, {"c", {"/bin/true"}}};
  sim::LaunchPlan plan = serial_plan(commands, 0.0);
  plan.launch_rule = "greedy";
  LastFirstReplanner replanner;
  LaunchSettings settings = settings_for(dir);
  settings.replanner = &replanner;
  const LaunchSummary summary = launch(plan, workload_of(commands), settings);
  EXPECT_EQ(summary.observed.completed, 3U);
  for (const TaskDeviation& task : summary.tasks) {
    EXPECT_EQ(task.replanned, task.id != "a") << task.id;
    EXPECT_EQ(task.replanned_duration, task.id == "c" ? std::optional<double>(0.25) : std::nullopt) << task.id;
    EXPECT_EQ(task.guessed, task.id == "b") << task.id;
  }
  std::vector<std::string> order;  // the journal's events after the header, as "<event> <task>"
  for (const auto& line : read_journal(settings.journal).events) {
    if (const auto* start = std::get_if<TaskStart>(&line.event)) order.push_back("start " + start->task);
    if (const auto* end = std::get_if<TaskEnd>(&line.event)) order.push_back("end " + end->task);
    if (const auto* replan = std::get_if<Replanned>(&line.event)) {
      order.push_back("replan after " + replan->after);
      // The makespan the run compares with: the re-plan's time plus the rest it predicted.
      EXPECT_EQ(summary.replanned_makespan, replan->t + 0.5);
      EXPECT_EQ(replan->reason, "learnt: the last task is short");
      EXPECT_EQ(replan->predicted_rest_s, 0.5);
      ASSERT_EQ(replan->tasks.size(), 2U);
      EXPECT_EQ(replan->tasks[0].task, "c");
      EXPECT_EQ(replan->tasks[0].predicted_duration, 0.25);
      EXPECT_FALSE(replan->tasks[1].predicted_duration.has_value());
      EXPECT_TRUE(replan->tasks[1].guessed);
    }
  }
  EXPECT_EQ(order, (std::vector<std::string>{"start a", "end a", "replan after a", "start c", "end c", "start b",
                                             "end b"}));
  const JournalReplay replay = replay_journal(settings.journal);
  EXPECT_EQ(replay.segments.front().replans.size(), 1U);
  ASSERT_TRUE(replay.tasks[2].replanned.has_value());
  EXPECT_EQ(replay.tasks[2].replanned->predicted_duration, 0.25);
}

TEST(LaunchWall, ResumeRefusesAJournalWithoutInputDigests) {
  const auto dir = testing::scratch_dir("wall-old-journal");
  const Commands commands{{"a", {"/bin/true"}}};
  LaunchSettings settings = settings_for(dir);
  std::ofstream(settings.journal) << R"({"event":"batch_start","algorithm":"test-serial"})" "\n";
  settings.resume = true;
  EXPECT_THROW((void)launch(serial_plan(commands, 0.0), workload_of(commands), settings), InputError);
}

TEST(LaunchWall, ATaskIdThatWouldEscapeTheLogFolderFailsAndWritesNothingOutside) {
  const auto dir = testing::scratch_dir("wall-escape");
  const Commands commands{{"../escaped", {"/bin/true"}}, {"fine", {"/bin/true"}}};
  const LaunchSettings settings = settings_for(dir);
  const LaunchSummary summary = launch(serial_plan(commands, 0.0), workload_of(commands), settings);
  EXPECT_EQ(summary.observed.failed, 1U);
  EXPECT_EQ(summary.observed.completed, 1U);
  EXPECT_FALSE(std::filesystem::exists(dir / "escaped.out"));
  EXPECT_EQ(last_status(settings.journal).at("../escaped"), "failed");
}

// Forks a launcher running `plan`; returns its pid.
pid_t fork_launcher(const sim::LaunchPlan& plan, const config::Workload& workload, const LaunchSettings& settings) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int code = 0;
    try {
      (void)launch(plan, workload, settings);
    } catch (...) {
      code = 3;
    }
    ::_exit(code);
  }
  return pid;
}

std::size_t count_events(const std::filesystem::path& journal, const std::string& name) {
  if (!std::filesystem::exists(journal)) return 0;
  std::size_t count = 0;
  for (const auto& line : read_journal(journal).events) count += event_name(line.event) == name ? 1 : 0;
  return count;
}

void wait_for_events(const std::filesystem::path& journal, const std::string& name, std::size_t count) {
  while (count_events(journal, name) < count) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

TEST(LaunchWall, ResumeAfterSigkillRunsOnlyWhatDidNotCompleteAndNothingTwice) {
  const auto dir = testing::scratch_dir("wall-resume");
  const auto marks = dir / "marks.txt";
  Commands commands;
  // A task that appended its mark but was not yet journaled when the launcher was killed would rightly run again
  // on resume; the tasks after the first two run 1 s, so the kill (at most a poll after the second end) lands
  // inside one of them and not in that window, even on a loaded machine.
  for (int k = 0; k < 5; ++k) {
    const std::string id = "task" + std::to_string(k);
    commands.push_back({id, testing::append_command(marks, id, k < 2 ? 200 : 1000)});
  }
  const sim::LaunchPlan plan = serial_plan(commands, 0.2);
  const config::Workload workload = workload_of(commands);
  LaunchSettings settings = settings_for(dir);

  const pid_t launcher = fork_launcher(plan, workload, settings);
  wait_for_events(settings.journal, "end", 2);
  ::kill(launcher, SIGKILL);
  ::waitpid(launcher, nullptr, 0);
  const auto before = last_status(settings.journal);
  ASSERT_GE(before.size(), 2U);
  ASSERT_LT(before.size(), commands.size());

  settings.resume = true;
  const LaunchSummary resumed = launch(plan, workload, settings);
  EXPECT_EQ(resumed.already_completed.size(), before.size());
  EXPECT_EQ(resumed.plan.tasks.size() + before.size(), commands.size());
  for (const auto& task : resumed.plan.tasks) EXPECT_EQ(before.count(task.id), 0U) << task.id;

  // Every task appended exactly once: none ran twice, none was lost.
  std::map<std::string, int> appended;
  std::ifstream in(marks);
  for (std::string line; std::getline(in, line);) ++appended[line];
  ASSERT_EQ(appended.size(), commands.size());
  for (const auto& [id, count] : appended) EXPECT_EQ(count, 1) << id;
  for (const auto& [id, status] : last_status(settings.journal)) EXPECT_EQ(status, "ok") << id;
  EXPECT_EQ(count_events(settings.journal, "batch_start"), 2U);
}

TEST(LaunchWall, SigtermStopsChildrenAndLeavesAConsistentJournal) {
  const auto dir = testing::scratch_dir("wall-sigterm");
  const Commands commands{{"long", {"/bin/sleep", "30"}}, {"never", {"/bin/true"}}};
  LaunchSettings settings = settings_for(dir);
  settings.clock.catch_stop_signals = true;
  const pid_t launcher = fork_launcher(serial_plan(commands, 0.0), workload_of(commands), settings);
  wait_for_events(settings.journal, "start", 1);
  ::kill(launcher, SIGTERM);
  int status = 0;
  ::waitpid(launcher, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const auto events = read_journal(settings.journal).events;
  ASSERT_TRUE(std::holds_alternative<BatchEnd>(events.back().event));
  EXPECT_EQ(std::get<BatchEnd>(events.back().event).status, BatchStatus::interrupted);
  EXPECT_EQ(last_status(settings.journal).at("long"), "killed");
  EXPECT_EQ(count_events(settings.journal, "start"), count_events(settings.journal, "end"));
}

}  // namespace
}  // namespace cosched::launcher
