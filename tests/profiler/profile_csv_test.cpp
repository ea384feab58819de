#include "cosched/profiler/profile_csv.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/profiler/sweep.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

using testing::CountingMeasurer;

std::vector<ProfilePoint> grid(unsigned chunks) {
  std::vector<ProfilePoint> points;
  for (unsigned c = 1; c <= 2; ++c) {
    for (unsigned k = 0; k < chunks; ++k) points.push_back({"triad", 64ULL << 20, c, k});
  }
  return points;
}

TEST(ProfileCsv, RoundTripIsExact) {
  const auto path = testing::scratch_dir() / "p.csv";
  std::vector<ProfileRow> rows = {
      {{"triad", 67108864, 1, 0}, 0.1 + 0.2, 0.1, 1.0 / 3.0, 5, 223.69621333333333},
      {{"ddot", 1, 64, 20}, 1e-9, 5e-324, 1e9, 1, 12.5},
  };
  {
    ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
    for (const auto& row : rows) writer.append(row);
  }
  const auto contents = read_profile_csv(path);
  EXPECT_FALSE(contents.truncated_tail);
  ASSERT_EQ(contents.rows.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(contents.rows[i].point, rows[i].point);
    EXPECT_EQ(contents.rows[i].time_s, rows[i].time_s);  // bit-exact, not near
    EXPECT_EQ(contents.rows[i].time_min_s, rows[i].time_min_s);
    EXPECT_EQ(contents.rows[i].time_max_s, rows[i].time_max_s);
    EXPECT_EQ(contents.rows[i].reps, rows[i].reps);
    EXPECT_EQ(contents.rows[i].gbs, rows[i].gbs);
  }
  EXPECT_EQ(testing::read_text(path).substr(0, std::string(kProfileCsvHeader).size()), kProfileCsvHeader);
}

// A file of an older `header` with one `row`, as read, then as read again after a resume appended `appended`.
std::pair<ProfileCsvContents, ProfileCsvContents> older_file_resumed(const std::filesystem::path& path,
                                                                     const char* header, const std::string& row,
                                                                     const ProfileRow& appended) {
  testing::write_file(path, std::string(header) + "\n" + row + "\n");
  ProfileCsvContents before = read_profile_csv(path);
  {
    ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::resume);
    writer.append(appended);
  }
  return {std::move(before), read_profile_csv(path)};
}

// The message read_profile_csv gives for a file of the current header and `row` ("no error" when it reads it).
// A row of 2 s a pass at `point`, whose memory-demand probe took 2.6 s.
ProfileRow probed_row(const ProfilePoint& point) {
  ProfileRow probed;
  probed.point = point;
  probed.time_s = probed.time_min_s = probed.time_max_s = 2.0;
  probed.reps = 3;
  probed.paired_s = 2.6;
  return probed;
}

// `row` written alone to a new profile CSV at `path`, and the rows read back.
std::vector<ProfileRow> written_and_read(const std::filesystem::path& path, const ProfileRow& row) {
  {
    ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
    writer.append(row);
  }
  return read_profile_csv(path).rows;
}

std::string read_error(const std::filesystem::path& dir, const std::string& row) {
  testing::write_file(dir / "bad.csv", std::string(kProfileCsvHeader) + "\n" + row + "\n");
  try {
    (void)read_profile_csv(dir / "bad.csv");
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

// Issue #24: the fixed_s column (a run's fixed cost, when a point was timed at two pass counts) round-trips, is
// empty without one, is checked like a time (>= 0 here), and files from before it are read and, resumed, rewritten
// with it.
TEST(ProfileCsv, FixedCostRoundTripsAndOlderFilesAreReadAndRewrittenWithTheColumn) {
  const auto dir = testing::scratch_dir();
  const auto row_at = [](unsigned cores, double time, std::optional<double> fixed) {
    ProfileRow row;
    row.point = {"triad", 64, cores, 0};
    row.time_s = row.time_min_s = row.time_max_s = time;
    row.reps = 3;
    row.gbs = 1.0;
    row.fixed_s = fixed;
    return row;
  };
  const ProfileRow with = row_at(1, 0.1, 0.025);
  const ProfileRow without = row_at(2, 0.2, std::nullopt);
  {
    ProfileCsvWriter writer(dir / "f.csv", ProfileCsvWriter::Mode::create);
    writer.append(with);
    writer.append(without);
  }
  const auto rows = read_profile_csv(dir / "f.csv").rows;
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].fixed_s, std::optional<double>(0.025));
  EXPECT_FALSE(rows[1].fixed_s.has_value());
  EXPECT_DOUBLE_EQ(rows[0].run_time(10), 0.025 + 10 * 0.1);

  const auto bad = [&](const std::string& row) { return read_error(dir, row); };
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok,-0.5,,,").find("fixed_s must be finite, >= 0"), std::string::npos);
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok,nan,,,").find("fixed_s"), std::string::npos);
  EXPECT_NE(bad("command:x,0,1,0,,,,0,,timeout,0.5,,,").find("has no time"), std::string::npos);
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok").find("expected 14"), std::string::npos);

  const auto [v2, resumed] =
      older_file_resumed(dir / "v2.csv", kProfileCsvHeaderWithoutFixed, "triad,64,3,0,1,1,1,1,1,ok", with);
  EXPECT_FALSE(v2.has_fixed_column);
  ASSERT_EQ(v2.rows.size(), 1U);
  EXPECT_FALSE(v2.rows[0].fixed_s.has_value());
  EXPECT_TRUE(resumed.has_fixed_column);
  ASSERT_EQ(resumed.rows.size(), 2U);
  EXPECT_EQ(resumed.rows[1].fixed_s, std::optional<double>(0.025));
}

// The memory-demand probe (issue 24 for commands, 23 for STREAM tasks): its paired time round-trips on either
// kind of row, is a time, and is absent from failed rows; a file from before the column is read and rewritten with
// it.
TEST(ProfileCsv, PairedTimeRoundTripsAndOlderFilesAreRewrittenWithTheColumn) {
  const auto dir = testing::scratch_dir();
  const ProfileRow probed = probed_row({"command:solver", 0, 1, 0});
  const auto rows = written_and_read(dir / "p.csv", probed);
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].paired_s, std::optional<double>(2.6));

  const auto bad = [&](const std::string& row) { return read_error(dir, row); };
  {
    ProfileCsvWriter writer(dir / "stream.csv", ProfileCsvWriter::Mode::create);
    ProfileRow stream_row = probed;
    stream_row.point = {"triad", 64, 1, 0};
    stream_row.fixed_s = 0.4;
    writer.append(stream_row);
  }
  EXPECT_EQ(read_profile_csv(dir / "stream.csv").rows.at(0).paired_s, std::optional<double>(2.6));
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok,,-0.2,,").find("paired_s"), std::string::npos);
  EXPECT_NE(bad("command:x,0,1,0,0.1,0.1,0.1,3,0,ok,,0,,").find("paired_s"), std::string::npos);
  EXPECT_NE(bad("command:x,0,1,0,0.1,0.1,0.1,3,0,ok,,inf,,").find("paired_s"), std::string::npos);
  EXPECT_NE(bad("command:x,0,1,0,,,,0,,timeout,,0.5,,").find("has no time"), std::string::npos);

  const auto [v3, resumed] =
      older_file_resumed(dir / "v3.csv", kProfileCsvHeaderWithoutPaired, "command:x,0,2,0,1,1,1,1,0,ok,", probed);
  EXPECT_FALSE(v3.has_paired_column);
  EXPECT_TRUE(v3.has_fixed_column);
  ASSERT_EQ(v3.rows.size(), 1U);
  EXPECT_FALSE(v3.rows[0].paired_s.has_value());
  EXPECT_TRUE(resumed.has_paired_column);
  ASSERT_EQ(resumed.rows.size(), 2U);
  EXPECT_EQ(resumed.rows[1].paired_s, std::optional<double>(2.6));
}

// The probe's spread (issue 23): paired_min_s and paired_max_s round-trip with paired_s, go together with it and
// around it; a file written with paired_s but not its spread is read (no spread) and rewritten with the columns.
TEST(ProfileCsv, PairedRangeRoundTripsGoesWithPairedAndOlderFilesGetTheColumns) {
  const auto dir = testing::scratch_dir();
  ProfileRow probed = probed_row({"triad", 64, 1, 0});
  probed.paired_min_s = 2.1;
  probed.paired_max_s = 3.25;
  const ProfileRow read = written_and_read(dir / "p.csv", probed).at(0);
  EXPECT_EQ(read.paired_min_s, std::optional<double>(2.1));
  EXPECT_EQ(read.paired_max_s, std::optional<double>(3.25));

  const auto bad = [&](const std::string& row) { return read_error(dir, row); };
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok,,0.2,0.1,").find("go together"), std::string::npos);
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok,,,0.1,0.3").find("go together"), std::string::npos);
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok,,0.2,0.25,0.3").find("paired_min_s <= paired_s <= paired_max_s"),
            std::string::npos);
  EXPECT_NE(bad("triad,64,1,0,0.1,0.1,0.1,3,1,ok,,0.2,0.1,inf").find("paired_max_s"), std::string::npos);
  EXPECT_NE(bad("command:x,0,1,0,,,,0,,timeout,,,0.1,0.3").find("has no time"), std::string::npos);

  const auto [v4, resumed] = older_file_resumed(dir / "v4.csv", kProfileCsvHeaderWithoutPairedRange,
                                                "command:x,0,2,0,1,1,1,1,0,ok,,1.5", probed);
  EXPECT_FALSE(v4.has_paired_range_column);
  EXPECT_TRUE(v4.has_paired_column);
  ASSERT_EQ(v4.rows.size(), 1U);
  EXPECT_EQ(v4.rows[0].paired_s, std::optional<double>(1.5));
  EXPECT_FALSE(v4.rows[0].paired_min_s.has_value());
  EXPECT_TRUE(resumed.has_paired_range_column);
  ASSERT_EQ(resumed.rows.size(), 2U);
  EXPECT_EQ(resumed.rows[0].paired_s, std::optional<double>(1.5));
  EXPECT_EQ(resumed.rows[1].paired_max_s, std::optional<double>(3.25));
}

TEST(ProfileCsv, WrongHeaderIsRejectedWithFileAndLine) {
  const auto path = testing::write_file(testing::scratch_dir() / "bad.csv", "kernel,cores\ntriad,1\n");
  try {
    (void)read_profile_csv(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:1"), std::string::npos) << e.what();
  }
}

TEST(ProfileCsv, MalformedRowNamesLineAndColumn) {
  const auto path = testing::write_file(testing::scratch_dir() / "bad.csv",
                                        std::string(kProfileCsvHeaderWithoutStatus) + "\ntriad,64,1,0,0.1,0.1,0.1,3,1\n" +
                                            "triad,64,x,0,0.1,0.1,0.1,3,1\n");
  try {
    (void)read_profile_csv(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.csv:3"), std::string::npos) << what;
    EXPECT_NE(what.find("cores"), std::string::npos) << what;
  }
}

std::string error_reading(const std::string& rows) {
  const auto path =
      testing::write_file(testing::scratch_dir() / "bad.csv", std::string(kProfileCsvHeaderWithoutStatus) + "\n" + rows);
  try {
    (void)read_profile_csv(path);
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find("bad.csv"));
  }
  return "no error";
}

// Rows no measurement can give, each refused with the file and line.
class ProfileCsvRejects : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(ProfileCsvRejects, RowNamingFileAndLine) {
  EXPECT_EQ(error_reading(std::string("triad,64,1,0,0.1,0.1,0.1,3,1\n") + GetParam().first + "\n"),
            GetParam().second);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ProfileCsvRejects,
    ::testing::Values(
        std::pair{"triad,64,2,0,-0.1,-0.1,0.1,3,1", "bad.csv:3: time_s must be finite, > 0 and <= 1e+09, got -0.1"},
        std::pair{"triad,64,2,0,0,0,0.1,3,1", "bad.csv:3: time_s must be finite, > 0 and <= 1e+09, got 0"},
        std::pair{"triad,64,2,0,inf,0.1,inf,3,1", "bad.csv:3: time_s must be finite, > 0 and <= 1e+09, got inf"},
        std::pair{"triad,64,2,0,nan,0.1,0.2,3,1", "bad.csv:3: time_s must be finite, > 0 and <= 1e+09, got nan"},
        std::pair{"triad,64,2,0,0.1,0.1,1e12,3,1", "bad.csv:3: time_max_s must be finite, > 0 and <= 1e+09, got 1e+12"},
        std::pair{"triad,64,2,0,0.1,0.2,0.3,3,1",
                  "bad.csv:3: time_min_s <= time_s <= time_max_s must hold, got 0.2, 0.1, 0.3"},
        std::pair{"triad,64,2,0,0.1,0.1,0.1,0,1", "bad.csv:3: reps must be at least 1"},
        std::pair{"triad,64,0,0,0.1,0.1,0.1,3,1", "bad.csv:3: cores must be at least 1"},
        std::pair{"triad,0,2,0,0.1,0.1,0.1,3,1", "bad.csv:3: footprint_bytes must be at least 1"},
        std::pair{"triad,64,2,0,0.1,0.1,0.1,3,nan",
                  "bad.csv:3: gbs must be finite, >= 0 and <= 1e+15, got nan"},
        std::pair{"fft,64,2,0,0.1,0.1,0.1,3,1",
                  "bad.csv:3: unknown kernel 'fft' (known: write, ddot, copy, scale, add, triad, gemm, stencil, spmv, "
                  "gups, or command:<name>)"},
        std::pair{"triad,64,1,0,0.2,0.2,0.2,3,1",
                  "bad.csv:3: the point kernel=triad footprint_bytes=64 cores=1 chunks=0 is already on line 2"}));

TEST(ProfileCsv, WriteErrorsAreReported) {
  ASSERT_TRUE(std::filesystem::exists("/dev/full"));
  EXPECT_THROW(ProfileCsvWriter("/dev/full", ProfileCsvWriter::Mode::create), PlatformError);
}

TEST(ProfileCsv, ResumeSkipsDonePoints) {
  const auto path = testing::scratch_dir() / "p.csv";
  const auto points = grid(5);
  CountingMeasurer first;
  {
    ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
    const std::vector<ProfilePoint> half(points.begin(), points.begin() + 4);
    EXPECT_EQ(run_sweep(half, first, writer, nullptr, nullptr).measured, 4U);
  }
  CountingMeasurer second;
  ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::resume);
  const auto outcome = run_sweep(points, second, writer, nullptr, nullptr);
  EXPECT_EQ(outcome.skipped, 4U);
  EXPECT_EQ(outcome.measured, points.size() - 4);
  EXPECT_EQ(second.calls, points.size() - 4);
  const auto rows = read_profile_csv(path).rows;
  ASSERT_EQ(rows.size(), points.size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i].point, points[i]);
}

TEST(ProfileCsv, TheSweepKeepsEveryPointsNote) {
  const auto path = testing::scratch_dir() / "p.csv";
  CountingMeasurer measurer;
  measurer.note_at = 2;
  ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
  EXPECT_EQ(run_sweep(grid(3), measurer, writer, nullptr, nullptr).notes, std::vector<std::string>{"note 2"});
}

// Five of each listed, then how many more; failures first.
TEST(ProfileCsv, SweepMessagesListFailuresAndNotesThenCountTheRest) {
  SweepOutcome outcome;
  outcome.failures = {"f1"};
  outcome.notes = {"n1", "n2", "n3", "n4", "n5", "n6", "n7"};
  EXPECT_EQ(sweep_messages(outcome, 5),
            (std::vector<std::string>{"failed: f1", "note: n1", "note: n2", "note: n3", "note: n4", "note: n5",
                                      "note: 2 more point(s) like these"}));
  EXPECT_TRUE(sweep_messages(SweepOutcome{}, 5).empty());
}

TEST(ProfileCsv, TruncatedLastLineIsDroppedAndMeasuredAgain) {
  const auto path = testing::scratch_dir() / "p.csv";
  const auto points = grid(3);
  {
    CountingMeasurer measurer;
    ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
    (void)run_sweep(points, measurer, writer, nullptr, nullptr);
  }
  // Cut the file in the middle of its last row, as a kill during a write would.
  std::string text = testing::read_text(path);
  text.resize(text.size() - 7);
  testing::write_file(path, text);
  const auto cut = read_profile_csv(path);
  EXPECT_TRUE(cut.truncated_tail);
  EXPECT_EQ(cut.rows.size(), points.size() - 1);

  CountingMeasurer measurer;
  ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::resume);
  EXPECT_TRUE(writer.dropped_truncated_tail());
  const auto outcome = run_sweep(points, measurer, writer, nullptr, nullptr);
  EXPECT_EQ(measurer.calls, 1U);
  EXPECT_EQ(outcome.skipped, points.size() - 1);
  const auto rows = read_profile_csv(path);
  EXPECT_FALSE(rows.truncated_tail);
  ASSERT_EQ(rows.rows.size(), points.size());
  EXPECT_EQ(rows.rows.back().point, points.back());
}

TEST(ProfileCsv, StopRequestLeavesValidFileWithFinishedPoints) {
  const auto path = testing::scratch_dir() / "p.csv";
  const auto points = grid(5);
  std::atomic<bool> stop{false};
  CountingMeasurer measurer;
  measurer.stop = &stop;
  measurer.stop_after = 3;  // "Ctrl-C" arrives while the third point is measured
  ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
  const auto outcome = run_sweep(points, measurer, writer, nullptr, &stop);
  EXPECT_TRUE(outcome.interrupted);
  EXPECT_EQ(outcome.measured, 3U);  // the point in flight is finished and written, nothing after it
  EXPECT_EQ(measurer.finishes, 1U);   // an interrupted sweep still finishes its measurer
  const auto contents = read_profile_csv(path);
  EXPECT_FALSE(contents.truncated_tail);
  EXPECT_EQ(contents.rows.size(), 3U);
}

// Issue #27: a sweep whose first point failed left a header-only CSV (and its sidecar). The CSV now appears with its
// first row: before it, the target is untouched — an old file replaced with --force included — and nothing is left
// beside it.
TEST(ProfileCsv, AFirstPointThatFailsLeavesNoCsvAndKeepsTheOldOne) {
  const auto folder = testing::scratch_dir() / "first-point-fails";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const auto path = folder / "p.csv";
  const std::string old = "an older profile\n";
  testing::write_file(path, old);
  CountingMeasurer measurer;
  measurer.fail_at = 1;
  {
    ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
    bool published = false;
    writer.on_publish([&] { published = true; });
    EXPECT_THROW((void)run_sweep(grid(2), measurer, writer, nullptr, nullptr), ResourceError);
    EXPECT_FALSE(published) << "the sidecar would have been written for a CSV without rows";
    EXPECT_FALSE(writer.published());
  }
  EXPECT_EQ(testing::read_text(path), old);
  std::vector<std::string> entries;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) entries.push_back(entry.path().filename());
  EXPECT_EQ(entries, std::vector<std::string>{"p.csv"}) << "a temporary CSV was left";
}

TEST(ProfileCsv, TheCsvAppearsWithItsFirstRowAfterItsSidecarAndKeepsRowsBeforeALaterFailure) {
  const auto path = testing::scratch_dir() / "publish.csv";
  std::filesystem::remove(path);
  CountingMeasurer measurer;
  measurer.fail_at = 3;
  unsigned publishes = 0;
  {
    ProfileCsvWriter writer(path, ProfileCsvWriter::Mode::create);
    writer.on_publish([&] {
      ++publishes;
      EXPECT_FALSE(std::filesystem::exists(path)) << "the sidecar is written before the CSV appears";
    });
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_THROW((void)run_sweep(grid(2), measurer, writer, nullptr, nullptr), ResourceError);
    EXPECT_TRUE(writer.published());
  }
  EXPECT_EQ(publishes, 1U);
  const auto contents = read_profile_csv(path);  // the two finished points stay, for --resume
  ASSERT_EQ(contents.rows.size(), 2U);
  EXPECT_EQ(contents.rows[1].point, grid(2)[1]);
}

TEST(ProfileCsv, RowKeepsMedianAndSpread) {
  Measurement m;
  m.times_s = {0.4, 0.1, 0.3, 0.2};
  const auto row = make_row({"write", 1'000'000'000, 2, 3}, m);
  EXPECT_DOUBLE_EQ(row.time_s, 0.25);
  EXPECT_DOUBLE_EQ(row.time_min_s, 0.1);
  EXPECT_DOUBLE_EQ(row.time_max_s, 0.4);
  EXPECT_EQ(row.reps, 4U);
  EXPECT_DOUBLE_EQ(row.gbs, 4.0);
}

}  // namespace
}  // namespace cosched::profiler
