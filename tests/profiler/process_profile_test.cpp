// `cosched profile --measurer process` (the default): whole stream_bench processes timed as the launcher runs them,
// through the built executables. One tiny point (a 1 MiB triad, 2 passes, 1 launch) keeps it quick; nothing here
// is timed.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "cosched/platform/topology.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "support/programs.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

using test_support::built_program;
using test_support::expect_one_line_error;
using test_support::run_program;

bool have_programs() {
  return std::filesystem::exists(built_program("cosched")) && std::filesystem::exists(built_program("stream_bench"));
}

const std::string kPoint =
    "profile --measurer process --kernels triad --footprints-mib 1 --cores 1 --chunks 1 --tier-backend emulated "
    "--reps 1 --warmup 0 --quiet ";

TEST(ProcessProfile, OnePointIsAWholeProcessPerPassAndTheSidecarSaysSo) {
  if (!have_programs()) GTEST_SKIP() << "cosched or stream_bench not built";
  const auto dir = testing::scratch_dir();
  const auto run = run_program("cosched", kPoint + "--passes 2 -o p.csv", dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  const ProfileCsvContents table = read_profile_csv(dir / "p.csv");
  ASSERT_EQ(table.rows.size(), 1U);
  const ProfileRow& row = table.rows.front();
  EXPECT_EQ(row.point, (ProfilePoint{"triad", 1U << 20, 1, 1}));
  EXPECT_EQ(row.reps, 1U);
  EXPECT_GT(row.time_s, 0.0);

  const ProfileSidecar sidecar = read_profile_sidecar(dir / "p.csv");
  EXPECT_EQ(sidecar.measurer.at("measurer"), "process");
  EXPECT_EQ(sidecar.measurer.at("passes"), 2);
  EXPECT_EQ(sidecar.measurer.at("tier_backend"), "emulated");
  EXPECT_EQ(sidecar.measurer.at("emulated"), true);
  EXPECT_EQ(sidecar.reps, 1U);
  EXPECT_EQ(sidecar.sweep.at("measured_this_run"), 1);

  // Per-pass times of another pass count are not the same points: --resume refuses to mix them.
  const auto resume = run_program("cosched", kPoint + "--passes 3 --resume -o p.csv", dir);
  expect_one_line_error(resume, 2, "passes", "resume with other passes");
  EXPECT_EQ(read_profile_csv(dir / "p.csv").rows.size(), 1U);
}

// Two pass counts: every point timed at both, the row keeps the cost of a pass and what a run pays once apart.
TEST(ProcessProfile, TwoPassCountsGiveEachPointItsFixedCostAndTheSidecarSaysBoth) {
  if (!have_programs()) GTEST_SKIP() << "cosched or stream_bench not built";
  const auto dir = testing::scratch_dir();
  const auto run = run_program("cosched", kPoint + "--passes 1,3 -o p.csv", dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ProfileCsvContents table = read_profile_csv(dir / "p.csv");
  ASSERT_EQ(table.rows.size(), 1U);
  const ProfileRow& row = table.rows.front();
  EXPECT_GT(row.time_s, 0.0);
  ASSERT_TRUE(row.fixed_s.has_value()) << "a point timed at two pass counts has a fixed cost";
  EXPECT_GE(*row.fixed_s, 0.0);
  EXPECT_EQ(read_profile_sidecar(dir / "p.csv").measurer.at("passes"), nlohmann::json::array({1, 3}));

  expect_one_line_error(run_program("cosched", kPoint + "--passes 3,1 -o q.csv", dir), 2, "larger than the first",
                        "--passes 3,1");
  expect_one_line_error(run_program("cosched", kPoint + "--passes 1,2,3 -o q.csv", dir), 2, "one pass count or two",
                        "--passes 1,2,3");
  EXPECT_FALSE(std::filesystem::exists(dir / "q.csv"));
}

// Issue 39: `cosched profile` without --measurer profiles for a launch — whole processes at 1 and 20 passes, each
// row with its fixed cost — and `--measurer stream` still gives tables of warm passes in-process, without one.
TEST(ProcessProfile, WithoutAMeasurerAProfileTimesWholeProcessesAtTwoPassCounts) {
  if (!have_programs()) GTEST_SKIP() << "cosched or stream_bench not built";
  const auto dir = testing::scratch_dir();
  const std::string point = "profile --kernels triad --footprints-mib 1 --cores 1 --chunks 1 --tier-backend emulated "
                            "--reps 1 --warmup 0 --quiet ";
  const auto run = run_program("cosched", point + "-o p.csv", dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ProfileCsvContents table = read_profile_csv(dir / "p.csv");
  ASSERT_EQ(table.rows.size(), 1U);
  EXPECT_TRUE(table.rows.front().fixed_s.has_value()) << "the default profile keeps each run's fixed cost";
  const ProfileSidecar sidecar = read_profile_sidecar(dir / "p.csv");
  EXPECT_EQ(sidecar.measurer.at("measurer"), "process");
  EXPECT_EQ(sidecar.measurer.at("passes"), nlohmann::json::array({1, 20}));

  const auto stream = run_program("cosched", point + "--measurer stream -o s.csv", dir);
  ASSERT_EQ(stream.exit_code, 0) << stream.err;
  EXPECT_FALSE(read_profile_csv(dir / "s.csv").rows.front().fixed_s.has_value());
  EXPECT_EQ(read_profile_sidecar(dir / "s.csv").measurer.at("measurer"), "stream");
}

// The memory-demand probe (issue 23): on a node of two cores or more, the point of half the cores and no fast chunk
// also runs as two copies side by side, in time_s's unit (paired_s / time_s is the pair's slowdown); no other point.
TEST(ProcessProfile, ThePointOfHalfTheCoresAndNoFastChunkAlsoRunsAsTwoCopies) {
  if (!have_programs()) GTEST_SKIP() << "cosched or stream_bench not built";
  const auto dir = testing::scratch_dir();
  const auto run = run_program("cosched",
                               "profile --measurer process --kernels triad --footprints-mib 1 --cores 1 --chunks 0,1 "
                               "--tier-backend emulated --reps 1 --warmup 0 --quiet --passes 1,3 -o p.csv",
                               dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ProfileCsvContents table = read_profile_csv(dir / "p.csv");
  ASSERT_EQ(table.rows.size(), 2U);
  const bool probed = platform::Topology::this_system().cores().size() >= 2;
  for (const ProfileRow& row : table.rows) {
    EXPECT_EQ(row.paired_s.has_value(), probed && row.point.chunks == 0) << row.point.chunks;
    if (row.paired_s) {  // with its spread (the reader checked paired_min_s <= paired_s <= paired_max_s)
      EXPECT_GT(*row.paired_s, 0.0);
      EXPECT_TRUE(row.paired_min_s.has_value() && row.paired_max_s.has_value());
    }
  }
  EXPECT_EQ(read_profile_sidecar(dir / "p.csv").measurer.contains("memory_demand_probe"), probed);
}

TEST(ProcessProfile, PassesAreRefusedWhenOutOfRangeOrForAMeasurerThatTimesEachPass) {
  if (!have_programs()) GTEST_SKIP() << "cosched or stream_bench not built";
  const auto dir = testing::scratch_dir();
  expect_one_line_error(run_program("cosched", kPoint + "--passes 0 -o p.csv", dir), 2, "--passes", "--passes 0");
  expect_one_line_error(run_program("cosched", kPoint + "--passes 2000000 -o p.csv", dir), 2, "--passes",
                        "--passes 2000000");
  expect_one_line_error(
      run_program("cosched", "profile --measurer stream --kernels triad --footprints-mib 1 --passes 2 -o p.csv", dir),
      2, "time whole tasks", "--passes with the stream measurer");
  expect_one_line_error(run_program("cosched", kPoint + "--measurer bogus -o p.csv", dir), 2, "--measurer",
                        "an unknown measurer");
  EXPECT_FALSE(std::filesystem::exists(dir / "p.csv"));
}

}  // namespace
}  // namespace cosched::profiler
