// The one replay of a journal, shared by `cosched report` and `--resume`: segments, where each task stands, and
// every way a journal's events can fail to make sense together (an InputError naming file:line).
#include "cosched/launcher/journal/replay.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cosched/common/error.hpp"

namespace cosched::launcher {
namespace {

const std::string kHeader =
    R"({"event":"batch_start","algorithm":"t-list-lpt","plan":[)"
    R"({"task":"a","alloc":[1],"planned_start":0,"predicted_duration":1,"predicted_start":0},)"
    R"({"task":"b","alloc":[1],"planned_start":1,"predicted_duration":1,"predicted_start":1}]})"
    "\n";
const std::string kResumedHeader = R"({"event":"batch_start","resumed":true,"plan":[]})" "\n";

std::string start(const std::string& task, double t) {
  return R"({"event":"start","task":")" + task + R"(","t":)" + std::to_string(t) + "}\n";
}
std::string end(const std::string& task, double t, const std::string& status = "ok") {
  return R"({"event":"end","task":")" + task + R"(","t":)" + std::to_string(t) + R"(,"status":")" + status +
         "\"}\n";
}
std::string batch_end(double makespan) {
  return R"({"event":"batch_end","status":"ok","observed_makespan":)" + std::to_string(makespan) + "}\n";
}

std::string replan(const std::string& after, double t, const std::string& task) {
  return R"({"event":"replan","t":)" + std::to_string(t) + R"(,"after":")" + after + R"(","tasks":[{"task":")" +
         task + R"(","alloc":[2],"predicted_duration":0.5}]})" "\n";
}

JournalReplay replay_text(const std::string& text) { return replay_journal(parse_journal(text, "run.jsonl")); }

TEST(JournalReplay, AFinishedRunHasOneClosedSegmentAndEveryTaskWhereItEnded) {
  const JournalReplay replay =
      replay_text(kHeader + start("a", 0) + end("a", 1.2) + start("b", 1.2) + end("b", 2.4, "failed") + batch_end(2.4));
  ASSERT_EQ(replay.segments.size(), 1U);
  EXPECT_TRUE(replay.finished());
  EXPECT_DOUBLE_EQ(replay.observed_makespan(), 2.4);
  ASSERT_EQ(replay.tasks.size(), 2U);
  EXPECT_EQ(replay.tasks[0].id, "a");
  EXPECT_TRUE(replay.tasks[0].completed());
  EXPECT_FALSE(replay.tasks[1].completed());
  EXPECT_EQ(replay.tasks[1].end->status, sim::TaskStatus::failed);
  ASSERT_TRUE(replay.tasks[1].planned.has_value());
  EXPECT_DOUBLE_EQ(replay.tasks[1].planned->planned_start, 1.0);
  EXPECT_EQ(replay.completed_ids(), (std::vector<std::string>{"a"}));
}

TEST(JournalReplay, AKilledLauncherLeavesAnOpenSegmentWhoseSpanIsItsLatestEvent) {
  const JournalReplay replay = replay_text(kHeader + start("a", 0) + end("a", 1.0) + start("b", 1.5));
  EXPECT_FALSE(replay.finished());
  EXPECT_DOUBLE_EQ(replay.observed_makespan(), 1.5);
  EXPECT_TRUE(replay.tasks[1].start.has_value());
  EXPECT_FALSE(replay.tasks[1].end.has_value());
  EXPECT_EQ(replay.completed_ids(), (std::vector<std::string>{"a"}));
}

TEST(JournalReplay, AResumedSegmentRerunsWhatDidNotCompleteAndSumsTheSpans) {
  const JournalReplay replay = replay_text(kHeader + start("a", 0) + end("a", 1.0) + start("b", 1.0) +
                                           end("b", 1.5, "killed") + kResumedHeader + start("b", 0) + end("b", 1.1) +
                                           batch_end(1.1) + R"({"event":"end","task":"b","sta)");
  ASSERT_EQ(replay.segments.size(), 2U);
  EXPECT_NEAR(replay.observed_makespan(), 1.5 + 1.1, 1e-12);
  EXPECT_EQ(replay.tasks[1].runs, 2U);
  EXPECT_EQ(replay.tasks[1].segment, 1U);
  EXPECT_EQ(replay.completed_ids(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(replay.truncated_tail.has_value());
}

// Issue #27 (mutation testing): a replay that kept the old end of a task restarted in a later segment went unnoticed.
// b failed in the first segment, started again in the resumed one and never ended there (the launcher died): its
// last run has no end, so it is neither completed nor failed, and a resume runs it again.
TEST(JournalReplay, ATaskRestartedInALaterSegmentAndNeverEndedThereHasNoEnd) {
  const JournalReplay replay = replay_text(kHeader + start("a", 0) + end("a", 1.0) + start("b", 1.0) +
                                           end("b", 1.5, "failed") + batch_end(1.5) + kResumedHeader + start("b", 0.2));
  ASSERT_EQ(replay.tasks.size(), 2U);
  const TaskReplay& b = replay.tasks[1];
  EXPECT_EQ(b.runs, 2U);
  EXPECT_EQ(b.segment, 1U);
  ASSERT_TRUE(b.start.has_value());
  EXPECT_DOUBLE_EQ(b.start->t, 0.2);  // the restart, not the first start
  EXPECT_FALSE(b.end.has_value()) << "the end of the first run was kept for the restarted one";
  EXPECT_FALSE(b.completed());
  EXPECT_EQ(replay.completed_ids(), (std::vector<std::string>{"a"}));
  EXPECT_FALSE(replay.finished());
}

TEST(JournalReplay, AReplanMovesAPendingTaskForTheLaunchThatMadeIt) {
  const JournalReplay replay =
      replay_text(kHeader + start("a", 0) + end("a", 1.0) + replan("a", 1.0, "b") + start("b", 1.0) + end("b", 1.4));
  ASSERT_EQ(replay.segments.front().replans.size(), 1U);
  EXPECT_EQ(replay.segments.front().replans.front().after, "a");
  ASSERT_TRUE(replay.tasks[1].replanned.has_value());
  EXPECT_EQ(replay.tasks[1].replanned->alloc, (std::vector<int>{2}));
  EXPECT_EQ(replay.tasks[1].replanned->predicted_duration, 0.5);
  EXPECT_FALSE(replay.tasks[0].replanned.has_value());
  // A resumed launch runs the plan as made: b, re-planned in the first segment and failed there, runs again as
  // planned in the second.
  const JournalReplay resumed =
      replay_text(kHeader + start("a", 0) + end("a", 1.0) + replan("a", 1.0, "b") + start("b", 1.0) +
                  end("b", 1.2, "failed") + batch_end(1.2) + kResumedHeader + start("b", 0) + end("b", 1.0));
  EXPECT_FALSE(resumed.tasks[1].replanned.has_value());
  EXPECT_TRUE(resumed.segments[1].replans.empty());
}

TEST(JournalReplay, TasksOutsideThePlanAreKeptInOrderOfAppearance) {
  const JournalReplay replay = replay_text(kHeader + start("z", 0) + end("z", 1));
  ASSERT_EQ(replay.tasks.size(), 3U);
  EXPECT_EQ(replay.tasks[2].id, "z");
  EXPECT_FALSE(replay.tasks[2].planned.has_value());
}

struct BadJournal {
  std::string label;
  std::string text;
  std::string where;    // "run.jsonl:<line>" or "run.jsonl"
  std::string mention;  // a part of the message
};

void PrintTo(const BadJournal& bad, std::ostream* out) { *out << bad.label; }

class JournalReplayRefusal : public ::testing::TestWithParam<BadJournal> {};

TEST_P(JournalReplayRefusal, IsAnInputErrorNamingTheLine) {
  try {
    (void)replay_text(GetParam().text);
    FAIL() << "accepted:\n" << GetParam().text;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(GetParam().where + ":", 0), 0U) << message;
    EXPECT_NE(message.find(GetParam().mention), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Events, JournalReplayRefusal,
    ::testing::Values(
        BadJournal{"empty", "", "run.jsonl", "no batch_start"},
        BadJournal{"no_header", end("a", 1), "run.jsonl:1", "before any batch_start"},
        BadJournal{"end_without_start", kHeader + end("a", 1), "run.jsonl:2", "never started"},
        BadJournal{"end_of_a_start_in_an_earlier_segment", kHeader + start("a", 0) + kResumedHeader + end("a", 1),
                   "run.jsonl:4", "never started in this segment"},
        BadJournal{"duplicate_end", kHeader + start("a", 0) + end("a", 1) + end("a", 2, "failed"), "run.jsonl:4",
                   "duplicate end"},
        BadJournal{"start_after_end", kHeader + start("a", 0) + end("a", 1, "failed") + start("a", 2), "run.jsonl:4",
                   "starts again in the segment where it ended at line 3"},
        BadJournal{"started_twice", kHeader + start("a", 0) + start("a", 1), "run.jsonl:3", "started at line 2"},
        BadJournal{"rerun_after_completion", kHeader + start("a", 0) + end("a", 1) + kResumedHeader + start("a", 0),
                   "run.jsonl:5", "completed ok"},
        BadJournal{"batch_end_while_running", kHeader + start("a", 0) + batch_end(1), "run.jsonl:3",
                   "still running"},
        BadJournal{"event_after_batch_end", kHeader + batch_end(0) + start("a", 0), "run.jsonl:3",
                   "after the batch_end of line 2"},
        BadJournal{"wrong_type_inside", kHeader + R"({"event":"start","task":"a","t":"0"})" "\n", "run.jsonl:2",
                   "\"t\" must be a number"},
        BadJournal{"replan_after_a_running_task", kHeader + start("a", 0) + replan("a", 1, "b"), "run.jsonl:3",
                   "has not ended in this segment"},
        BadJournal{"replan_of_a_started_task", kHeader + start("a", 0) + start("b", 0) + end("a", 1) +
                   replan("a", 1, "b"), "run.jsonl:5", "only pending tasks are re-planned"},
        BadJournal{"replan_after_batch_end", kHeader + start("a", 0) + end("a", 1) + batch_end(1) +
                   replan("a", 1, "b"), "run.jsonl:5", "after the batch_end"},
        BadJournal{"unknown_status_inside", kHeader + start("a", 0) + end("a", 1, "finished"), "run.jsonl:3",
                   "unknown task status"}),
    [](const ::testing::TestParamInfo<BadJournal>& test) { return test.param.label; });

}  // namespace
}  // namespace cosched::launcher
