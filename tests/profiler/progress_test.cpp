#include "cosched/profiler/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace cosched::profiler {
namespace {

std::string drain(std::FILE* file) {
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text.push_back(static_cast<char>(c));
  return text;
}

TEST(Progress, DurationFormat) {
  EXPECT_EQ(ProgressReporter::format_duration(0.4), "0s");
  EXPECT_EQ(ProgressReporter::format_duration(59.6), "1m00s");
  EXPECT_EQ(ProgressReporter::format_duration(185), "3m05s");
  EXPECT_EQ(ProgressReporter::format_duration(3720), "1h02m");
  EXPECT_EQ(ProgressReporter::format_duration(-3), "0s");
}

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ProgressReporter progress(2, out, false);
  progress.point_done({{"triad", 64ULL << 20, 2, 5}, 0.5, 0.4, 0.6, 3, 1.0});
  progress.point_done({{"triad", 64ULL << 20, 2, 6}, 0.25, 0.2, 0.3, 3, 1.0});
  progress.finish();
  const std::string text = drain(out);
  std::fclose(out);
  EXPECT_NE(text.find("1/2 triad 64MiB cores=2 chunks=5 0.5s ETA"), std::string::npos) << text;
  EXPECT_NE(text.find("2/2 triad 64MiB cores=2 chunks=6 0.25s ETA 0s\n"), std::string::npos) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

TEST(Progress, BarRedrawsInPlaceOnATerminal) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  ProgressReporter progress(4, out, true);
  progress.point_done({{"ddot", 1ULL << 20, 1, 0}, 0.5, 0.4, 0.6, 3, 1.0});
  progress.finish();
  const std::string text = drain(out);
  std::fclose(out);
  EXPECT_EQ(text.front(), '\r');
  EXPECT_NE(text.find("[#######.......................] 1/4"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
}

}  // namespace
}  // namespace cosched::profiler
