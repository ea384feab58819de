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

TEST(Report, AJournalWithoutAHeaderIsAnInputError) {
  const auto path = write_journal("headless", R"({"event":"end","task":"a","status":"ok"})" "\n");
  EXPECT_THROW((void)summarize_journal(path), InputError);
}

}  // namespace
}  // namespace cosched::launcher
