// `cosched report`: summaries of finished, resumed and cut-short journals.
#include "cosched/launcher/report.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "cosched/common/error.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

const char* const header =
    R"({"event":"batch_start","algorithm":"t-list-lpt","policy":"list","host":"h","tier_backend":"emulated",)"
    R"("emulated":true,"lower_bound":1.5,"predicted_makespan":2.0,"plan":[)"
    R"({"task":"a","alloc":[1],"planned_start":0,"predicted_duration":1,"predicted_start":0},)"
    R"({"task":"b","alloc":[1],"planned_start":1,"predicted_duration":1,"predicted_start":1}]})";

std::filesystem::path write_journal(const std::string& name, const std::string& text) {
  const auto path = testing::scratch_dir("report-" + name) / "run.jsonl";
  std::ofstream(path) << text;
  return path;
}

TEST(Report, SummarisesAFinishedRun) {
  const auto path = write_journal(
      "finished", std::string(header) + "\n" +
                      R"({"event":"start","task":"a","t":0.0,"launch_overhead_s":0.001,"cores":[0]})" "\n"
                      R"({"event":"end","task":"a","t":1.2,"status":"ok"})" "\n"
                      R"({"event":"start","task":"b","t":1.2,"launch_overhead_s":0.003,"cores":[0]})" "\n"
                      R"({"event":"end","task":"b","t":2.4,"status":"failed"})" "\n"
                      R"({"event":"batch_end","status":"failed","observed_makespan":2.4})" "\n");
  const JournalReport report = summarize_journal(path);
  EXPECT_EQ(report.tasks_completed, 1U);
  EXPECT_EQ(report.tasks_failed, 1U);
  EXPECT_DOUBLE_EQ(report.observed_makespan, 2.4);
  EXPECT_DOUBLE_EQ(report.predicted_makespan, 2.0);
  EXPECT_DOUBLE_EQ(report.lower_bound, 1.5);
  EXPECT_DOUBLE_EQ(report.ratio(), 1.2);
  EXPECT_NEAR(report.max_abs_start_deviation_s, 0.2, 1e-12);
  EXPECT_TRUE(report.finished);
  EXPECT_TRUE(report.emulated);
  const auto json = to_json(report);
  for (const char* key : {"predicted_makespan", "observed_makespan", "lower_bound", "tasks_completed", "tasks_failed"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
}

TEST(Report, JsonCarriesTheInputDigestsTheJournalWasStampedWith) {
  std::string stamped = header;
  stamped.insert(stamped.size() - 1, R"(,"inputs":{"schedule":{"digest":"fnv1a64:0000000000000001","summary":"s"},)"
                                     R"("workload":{"digest":"fnv1a64:0000000000000002","summary":"w"},)"
                                     R"("platform":{"digest":"fnv1a64:0000000000000003","summary":"p"}})");
  const auto json = to_json(summarize_journal(write_journal("stamped", stamped + "\n")));
  EXPECT_EQ(json.at("inputs").at("schedule").at("digest"), "fnv1a64:0000000000000001");
  EXPECT_EQ(json.at("inputs").at("workload").at("summary"), "w");
  EXPECT_EQ(json.at("inputs").at("platform").at("digest"), "fnv1a64:0000000000000003");
  // A journal written before the digests existed: the key is there, null.
  EXPECT_TRUE(to_json(summarize_journal(write_journal("unstamped", std::string(header) + "\n"))).at("inputs").is_null());
}

TEST(Report, AKilledThenResumedRunCountsEachTaskOnceAndSumsItsSegments) {
  const auto path = write_journal(
      "resumed", std::string(header) + "\n" +
                     R"({"event":"start","task":"a","t":0.0,"cores":[0]})" "\n"
                     R"({"event":"end","task":"a","t":1.0,"status":"ok"})" "\n"
                     R"({"event":"start","task":"b","t":1.0,"cores":[0]})" "\n" +
                     R"({"event":"batch_start","resumed":true,"plan":[]})" "\n"
                     R"({"event":"start","task":"b","t":0.0,"cores":[1]})" "\n"
                     R"({"event":"end","task":"b","t":1.1,"status":"ok"})" "\n"
                     R"({"event":"batch_end","status":"ok","observed_makespan":1.1})" "\n"
                     R"({"event":"end","task":"b","sta)");
  const JournalReport report = summarize_journal(path);
  EXPECT_EQ(report.segments, 2U);
  EXPECT_EQ(report.tasks_completed, 2U);
  EXPECT_EQ(report.tasks_planned, 2U);
  EXPECT_NEAR(report.observed_makespan, 1.0 + 1.1, 1e-12);
  EXPECT_TRUE(report.truncated_tail);
  EXPECT_TRUE(report.finished);
}

TEST(Report, ShowsBothPredictionsAndTheErrorOfEach) {
  std::string with_contention = header;
  with_contention.insert(with_contention.size() - 1, R"(,"predicted_makespan_contention":2.5)");
  const auto path = write_journal(
      "contention", with_contention + "\n" +
                        R"({"event":"start","task":"a","t":0.0,"predicted_contention_start":0,)"
                        R"("predicted_contention_end":1.25})" "\n"
                        R"({"event":"end","task":"a","t":1.5,"status":"ok"})" "\n"
                        R"({"event":"batch_end","status":"ok","observed_makespan":3.0})" "\n");
  const JournalReport report = summarize_journal(path);
  EXPECT_EQ(report.predicted_makespan_contention, 2.5);
  EXPECT_DOUBLE_EQ(report.error_paper().value(), 0.5);       // 3.0 / 2.0 - 1
  EXPECT_DOUBLE_EQ(report.error_contention().value(), 0.2);  // 3.0 / 2.5 - 1
  const auto json = to_json(report);
  EXPECT_EQ(json.at("predicted_makespan_contention"), 2.5);
  EXPECT_DOUBLE_EQ(json.at("error_paper").get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(json.at("error_contention").get<double>(), 0.2);
  EXPECT_EQ(json.at("tasks").at(0).at("predicted_contention_end"), 1.25);
  EXPECT_TRUE(json.at("tasks").at(1).at("predicted_contention_end").is_null());  // b never started
  const std::string text = format_report(report);
  EXPECT_NE(text.find("+50.0 % (paper model)"), std::string::npos) << text;
  EXPECT_NE(text.find("+20.0 % (contention-aware)"), std::string::npos) << text;
}

TEST(Report, AJournalWithoutTheContentionPredictionHasNullsAndSaysSo) {
  const auto path = write_journal("paper-only", std::string(header) + "\n" +
                                                    R"({"event":"batch_end","status":"ok","observed_makespan":3.0})" "\n");
  const JournalReport report = summarize_journal(path);
  const auto json = to_json(report);
  EXPECT_TRUE(json.at("predicted_makespan_contention").is_null());
  EXPECT_TRUE(json.at("error_contention").is_null());
  EXPECT_DOUBLE_EQ(json.at("error_paper").get<double>(), 0.5);
  EXPECT_NE(format_report(report).find("contention-aware     unavailable"), std::string::npos);
}

TEST(Report, SaysWhetherTheObservedMakespanFellInsideThePredictedInterval) {
  std::string with_interval = header;
  with_interval.insert(with_interval.size() - 1, R"(,"predicted_interval":{"low_s":1.5,"high_s":2.5,"coverage":0.8})");
  const auto inside = summarize_journal(write_journal(
      "inside", with_interval + "\n" + R"({"event":"batch_end","status":"ok","observed_makespan":2.4})" "\n"));
  EXPECT_EQ(inside.inside_interval(), true);
  EXPECT_EQ(to_json(inside).at("inside_interval"), true);
  EXPECT_EQ(to_json(inside).at("predicted_interval").at("high_s"), 2.5);
  EXPECT_NE(format_report(inside).find("80 % interval of the predicted makespan: 1.5 .. 2.5 s; observed 2.4 s: inside"),
            std::string::npos)
      << format_report(inside);
  const auto outside = summarize_journal(write_journal(
      "outside", with_interval + "\n" + R"({"event":"batch_end","status":"ok","observed_makespan":3.0})" "\n"));
  EXPECT_EQ(outside.inside_interval(), false);
  EXPECT_NE(format_report(outside).find("observed 3 s: outside"), std::string::npos) << format_report(outside);
  // Without an interval (cosched launch, older journals) there is nothing to compare: null, and no line.
  const auto none = summarize_journal(write_journal(
      "no-interval", std::string(header) + "\n" + R"({"event":"batch_end","status":"ok","observed_makespan":3.0})" "\n"));
  EXPECT_FALSE(none.inside_interval().has_value());
  EXPECT_TRUE(to_json(none).at("predicted_interval").is_null());
  EXPECT_TRUE(to_json(none).at("inside_interval").is_null());
  EXPECT_EQ(format_report(none).find("interval"), std::string::npos);
}

// A task the launch re-planned is compared with the re-plan's prediction where it ran, not with the plan's at the
// allocation it left (b: planned 1 s on one core, re-planned to 0.5 s on two, ran 0.6 s).
TEST(Report, ARePlannedTaskIsComparedWithTheRePlan) {
  const auto path = write_journal(
      "replanned", std::string(header) + "\n" +
                       R"({"event":"start","task":"a","t":0.0,"cores":[0]})" "\n"
                       R"({"event":"end","task":"a","t":1.0,"status":"ok"})" "\n"
                       R"({"event":"replan","t":1.0,"after":"a","reason":"learnt",)"
                       R"("tasks":[{"task":"b","alloc":[2],"predicted_duration":0.5}]})" "\n"
                       R"({"event":"start","task":"b","t":1.0,"cores":[0,1]})" "\n"
                       R"({"event":"end","task":"b","t":1.6,"status":"ok"})" "\n"
                       R"({"event":"batch_end","status":"ok","observed_makespan":1.6})" "\n");
  const JournalReport report = summarize_journal(path);
  EXPECT_EQ(report.replans.size(), 1U);
  ASSERT_TRUE(report.tasks[1].replanned.has_value());
  EXPECT_DOUBLE_EQ(report.tasks[1].predicted_duration(), 0.5);
  EXPECT_DOUBLE_EQ(report.tasks[0].predicted_duration(), 1.0);
  const DurationRatios ratios = duration_ratios(report);
  ASSERT_EQ(ratios.alone.size(), 2U);
  EXPECT_NEAR(ratios.alone[1], 0.6 / 0.5, 1e-12);
  const std::string text = format_report(report);
  EXPECT_NE(text.find("re-planned 1 time(s) as results arrived: 1 task(s) ran as re-planned, observed / "
                      "re-predicted duration 1.20 .. 1.20"),
            std::string::npos)
      << text;
  const auto json = to_json(report);
  ASSERT_EQ(json["replans"].size(), 1U);
  EXPECT_EQ(json["replans"][0]["after"], "a");
  EXPECT_EQ(json["replans"][0]["reason"], "learnt");
  EXPECT_NE(text.find("\n  at 1.000 s, after a: learnt\n"), std::string::npos) << text;
  EXPECT_EQ(json["tasks"][1]["replanned"]["alloc"], nlohmann::json::array({2}));
  EXPECT_TRUE(json["tasks"][0]["replanned"].is_null());
}

TEST(Report, AJournalWithoutAHeaderIsAnInputError) {
  const auto path = write_journal("headless", R"({"event":"end","task":"a","status":"ok"})" "\n");
  EXPECT_THROW((void)summarize_journal(path), InputError);
}

}  // namespace
}  // namespace cosched::launcher
