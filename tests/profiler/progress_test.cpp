// A sweep's progress (profiler/progress.hpp): one counter event per point — how many of how many, the ETA, what
// the point measured — and the end of the operation. How a console shows it: tests/workflow/reporters_test.cpp.
#include "cosched/profiler/progress.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/recording_reporter.hpp"

namespace cosched::profiler {
namespace {

TEST(SweepProgress, OneCounterEventPerPointThenTheEnd) {
  test_support::RecordingReporter reporter;
  SweepProgress progress(2, reporter);
  progress.point_done({{"triad", 64ULL << 20, 2, 5}, 0.5, 0.4, 0.6, 3, 1.0});
  progress.point_done({{"triad", 64ULL << 20, 2, 6}, 0.25, 0.2, 0.3, 3, 1.0});
  progress.finish();
  ASSERT_EQ(reporter.progresses.size(), 2U);
  const Progress& first = reporter.progresses[0];
  EXPECT_EQ(first.operation, "profile");
  EXPECT_EQ(first.style, ProgressStyle::counter);
  EXPECT_EQ(first.done, 1U);
  EXPECT_EQ(first.total, 2U);
  EXPECT_EQ(first.event, "triad 64MiB cores=2 chunks=5 0.5s");
  EXPECT_EQ(first.fields.at("chunks"), 5);
  const Progress& last = reporter.progresses[1];
  EXPECT_EQ(last.event, "triad 64MiB cores=2 chunks=6 0.25s");
  EXPECT_EQ(last.eta_s, 0.0) << "nothing left after the last point";
  ASSERT_EQ(reporter.events.size(), 3U);
  EXPECT_EQ(reporter.events.back().type, "progress_done");
}

TEST(SweepProgress, AFailedPointSaysSo) {
  test_support::RecordingReporter reporter;
  SweepProgress progress(1, reporter);
  ProfileRow row{{"ddot", 1ULL << 20, 1, 0}, 0.0, 0.0, 0.0, 1, 1.0};
  row.status = "timeout";
  progress.point_done(row);
  ASSERT_EQ(reporter.progresses.size(), 1U);
  EXPECT_EQ(reporter.progresses[0].event, "ddot 1MiB cores=1 chunks=0 FAILED: timeout");
  EXPECT_FALSE(reporter.progresses[0].fields.contains("time_s"));
}

}  // namespace
}  // namespace cosched::profiler
