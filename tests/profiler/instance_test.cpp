// Tables to tasks: the instance JSON's shape (resources, dense row-major times of length prod(P_i + 1), null
// without cores), capped fractions, passes, and errors for profiles that do not cover the workload.
#include "cosched/profiler/instance_builder.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "cosched/common/error.hpp"
#include "cosched/profiler/knl_model.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/online/workload.hpp"
#include "support/programs.hpp"
#include "test_support.hpp"

namespace cosched::profiler {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

config::Workload stream_workload(const std::string& kernel, std::uint64_t footprint, unsigned count, unsigned passes) {
  config::Workload workload;
  workload.name = "w";
  config::add_stream_tasks(workload, {kernel, footprint, count, passes});
  return workload;
}

config::PlatformConfig small_platform() {
  config::PlatformConfig p;
  p.name = "small";
  p.cores = 4;
  p.fast_capacity_bytes = 100 * kMiB;
  p.fast_chunks = 10;  // 10 MiB chunks
  return p;
}

// A full model table (every cores x chunks point) for `footprint` on `platform`.
ProfileSet model_profile(const std::string& kernel, std::uint64_t footprint, const config::PlatformConfig& platform) {
  std::vector<ProfileRow> rows;
  for (unsigned c = 1; c <= platform.cores; ++c) {
    for (unsigned k = 0; k <= platform.fast_chunks; ++k) {
      const double t = knl_model_time({}, footprint, c, fast_fraction(footprint, k, platform.chunk_bytes()));
      rows.push_back({{kernel, footprint, c, k}, t, t, t, 1, 1.0});
    }
  }
  ProfileSet set;
  set.add(rows, platform.chunk_bytes());
  return set;
}

TEST(Instance, DenseRowMajorTimesWithNullWithoutCores) {
  const auto platform = small_platform();
  const auto profiles = model_profile("triad", 40 * kMiB, platform);
  const config::Workload workload = stream_workload("triad", 40 * kMiB, 3, 2);
  const sched::Instance instance = build_instance(workload, profiles, platform);

  ASSERT_EQ(instance.resources().size(), 2U);
  EXPECT_EQ(instance.resources()[0].name, "cores");
  EXPECT_EQ(instance.resources()[0].capacity, 4);
  EXPECT_EQ(instance.resources()[1].name, "fast_chunks");
  EXPECT_EQ(instance.resources()[1].capacity, 10);
  EXPECT_EQ(instance.attributes(), nlohmann::json::parse(R"({"workload": "w",
                                                             "platform": {"name": "small", "chunk_bytes": 10485760.0}})"));
  ASSERT_EQ(instance.task_count(), 3U);
  std::set<std::string> ids;
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    const auto& task = instance.tasks()[j];
    ids.insert(task.id);
    EXPECT_EQ(task.attributes,
              nlohmann::json({{"kernel", "triad"}, {"footprint_bytes", 40 * kMiB}, {"passes", 2}}));
    for (int k = 0; k <= 10; ++k) EXPECT_TRUE(std::isinf(instance.time(j, std::vector<int>{0, k})));  // no core
    // The measured (c, k) time, times 2 passes.
    for (unsigned c = 1; c <= 4; ++c) {
      for (unsigned k = 0; k <= 10; ++k) {
        const double expected =
            2 * knl_model_time({}, 40 * kMiB, c, fast_fraction(40 * kMiB, k, platform.chunk_bytes()));
        EXPECT_DOUBLE_EQ(instance.time(j, std::vector<int>{static_cast<int>(c), static_cast<int>(k)}), expected)
            << c << "," << k;
      }
    }
  }
  EXPECT_EQ(ids, (std::set<std::string>{"triad-40MiB-0", "triad-40MiB-1", "triad-40MiB-2"}));
  // Written as the Instance JSON: dense row-major times (cores slowest), null without a core.
  const auto json = nlohmann::json::parse(sched::instance_to_json(instance));
  ASSERT_EQ(json["tasks"][0]["times"].size(), (4U + 1) * (10U + 1));
  EXPECT_TRUE(json["tasks"][0]["times"][10].is_null());
  EXPECT_EQ(json["tasks"][0]["times"][1 * 11 + 3], instance.time(0, std::vector<int>{1, 3}));
  EXPECT_EQ(json["tasks"][0]["kernel"], "triad");
}

// `cosched instance` carries a node workload's release times and users (config::to_json writes them when set)
// into the Instance JSON's task attributes, where the online workload reads them.
TEST(Instance, CarriesReleaseTimesAndUsersForOnlineRuns) {
  const auto platform = small_platform();
  config::Workload workload = stream_workload("triad", 40 * kMiB, 2, 1);
  workload.tasks[1].release_s = 3.5;
  workload.tasks[1].user = "alice";
  const auto instance = build_instance(workload, model_profile("triad", 40 * kMiB, platform), platform);
  EXPECT_FALSE(instance.tasks()[0].attributes.contains("release_s"));
  EXPECT_EQ(instance.tasks()[1].attributes.at("release_s"), 3.5);
  const auto read = sched::parse_instance(sched::instance_to_json(instance), "w.json");
  const auto online = online::online_workload_from_instance(read, "w.json");
  EXPECT_EQ(online.name, "w");
  EXPECT_EQ(online.arrivals[0].release, 0.0);
  EXPECT_EQ(online.arrivals[1].release, 3.5);
  EXPECT_EQ(online.arrivals[1].user, "alice");
}

TEST(Instance, TimesBeyondWhatAnInstanceHoldsAreAnInputError) {
  const auto platform = small_platform();
  const auto profiles = model_profile("triad", 40 * kMiB, platform);
  try {
    // Built by hand: a workload file could not hold that many passes (config::kMaxPasses), an instance builder
    // must still refuse them.
    config::Workload workload;
    workload.name = "w";
    for (int k = 0; k < 100; ++k) {
      workload.tasks.push_back({std::to_string(k), "triad", 40 * kMiB, 4'000'000'000, {}, std::nullopt});
    }
    (void)build_instance(workload, profiles, platform);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("workload 'w': the tasks' longest finite times add up to"),
              std::string::npos)
        << e.what();
  }
}

TEST(Instance, CommandTasksHaveNoProfileAndAreRefused) {
  const auto platform = small_platform();
  config::Workload workload;
  workload.tasks.push_back({"cmd", "", 0, 1, {"/bin/true"}, std::nullopt});
  EXPECT_THROW((void)build_instance(workload, model_profile("triad", 40 * kMiB, platform), platform), InputError);
}

TEST(Instance, ChunksBeyondTheFootprintGiveNoBenefit) {
  const auto platform = small_platform();
  // Measured only at 0 and 10 chunks: 10 chunks = 100 MiB, far beyond the 25 MiB footprint (fits at 2.5 chunks).
  const std::uint64_t footprint = 25 * kMiB;
  std::vector<ProfileRow> rows = {{{"write", footprint, 1, 0}, 5.0, 5.0, 5.0, 1, 1.0},
                                  {{"write", footprint, 1, 10}, 1.0, 1.0, 1.0, 1, 1.0}};
  ProfileSet set;
  set.add(rows, platform.chunk_bytes());
  const auto times = task_time_table(set, "write", footprint, platform);
  // Fraction at k chunks is min(1, 10k/25): linear from 5 s to 1 s until 2.5 chunks, then flat.
  EXPECT_DOUBLE_EQ(times[1 * 11 + 1], 5.0 - 4.0 * 0.4);
  EXPECT_DOUBLE_EQ(times[1 * 11 + 2], 5.0 - 4.0 * 0.8);
  for (unsigned k = 3; k <= 10; ++k) EXPECT_DOUBLE_EQ(times[1 * 11 + k], 1.0) << k;
}

TEST(Instance, ProfileWithAnotherChunkSizeIsRescaledThroughFastBytes) {
  const auto platform = small_platform();  // 10 MiB chunks
  const std::uint64_t footprint = 40 * kMiB;
  // Measured with 20 MiB chunks: chunk 1 = 20 MiB fast = half the footprint.
  std::vector<ProfileRow> rows = {{{"ddot", footprint, 1, 0}, 4.0, 4.0, 4.0, 1, 1.0},
                                  {{"ddot", footprint, 1, 1}, 3.0, 3.0, 3.0, 1, 1.0},
                                  {{"ddot", footprint, 1, 2}, 2.0, 2.0, 2.0, 1, 1.0}};
  ProfileSet set;
  set.add(rows, 20.0 * kMiB);
  const auto times = task_time_table(set, "ddot", footprint, platform);
  EXPECT_DOUBLE_EQ(times[11 + 2], 3.0);  // 2 platform chunks = 20 MiB
  EXPECT_DOUBLE_EQ(times[11 + 1], 3.5);
  EXPECT_DOUBLE_EQ(times[11 + 4], 2.0);
}

TEST(Instance, MissingFootprintIsAnInputErrorListingWhatExists) {
  const auto platform = small_platform();
  const auto profiles = model_profile("triad", 40 * kMiB, platform);
  try {
    (void)build_instance(stream_workload("triad", 64 * kMiB, 1, 1), profiles, platform);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(std::to_string(64 * kMiB)), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(40 * kMiB)), std::string::npos) << what;
  }
}

// Issue #24: a task's time is what a run pays once plus passes x the cost of a pass, so a profile timed at two
// pass counts predicts a task of any passes; a profile without a fixed cost keeps passes x time as before.
TEST(Instance, ATaskTakesItsFixedCostPlusItsPassesTimesTheCostOfAPass) {
  const auto platform = small_platform();
  const std::uint64_t footprint = 40 * kMiB;
  ProfileRow with_fixed{{"triad", footprint, 1, 0}, 0.5, 0.4, 0.6, 3, 1.0};
  with_fixed.fixed_s = 0.25;
  ProfileSet set;
  set.add({with_fixed}, platform.chunk_bytes());
  EXPECT_DOUBLE_EQ(task_time_table(set, "triad", footprint, platform, 20)[1 * 11 + 0], 0.25 + 20 * 0.5);
  EXPECT_DOUBLE_EQ(task_time_table(set, "triad", footprint, platform, 1)[1 * 11 + 0], 0.25 + 0.5);
  const sched::Instance instance = build_instance(stream_workload("triad", footprint, 1, 7), set, platform);
  EXPECT_DOUBLE_EQ(instance.time(0, std::vector<int>{1, 0}), 0.25 + 7 * 0.5);

  ProfileSet without;
  without.add({{{"triad", footprint, 1, 0}, 0.5, 0.4, 0.6, 3, 1.0}}, platform.chunk_bytes());
  EXPECT_DOUBLE_EQ(task_time_table(without, "triad", footprint, platform, 20)[1 * 11 + 0], 20 * 0.5);
}

// `cosched instance` says which kernels a launch will find slower than predicted: those whose rows lack a fixed
// cost; a kernel the workload does not run, a failed row or a command does not count.
TEST(Instance, KernelsWithoutAFixedCostAreTheWorkloadsStreamKernelsProfiledWithoutOne) {
  const std::uint64_t footprint = 40 * kMiB;
  ProfileRow triad{{"triad", footprint, 1, 0}, 0.5, 0.4, 0.6, 3, 1.0};
  ProfileRow copy{{"copy", footprint, 1, 0}, 0.5, 0.4, 0.6, 3, 1.0};
  ProfileRow scale{{"scale", footprint, 1, 0}, 0.5, 0.4, 0.6, 3, 1.0};
  ProfileRow failed_add{{"add", footprint, 1, 0}, 0.5, 0.4, 0.6, 3, 1.0};
  failed_add.status = "exit-3";
  copy.fixed_s = 0.2;
  ProfileSet set;
  set.add({triad, copy, scale, failed_add}, small_platform().chunk_bytes());
  config::Workload workload = stream_workload("triad", footprint, 2, 20);
  config::add_stream_tasks(workload, {"copy", footprint, 1, 20});
  config::add_stream_tasks(workload, {"add", footprint, 1, 20});
  workload.tasks.push_back({"cmd", "", 0, 1, {"/bin/true"}, std::nullopt});
  EXPECT_EQ(kernels_without_fixed_cost(workload, set), std::vector<std::string>{"triad"});
  triad.fixed_s = 0.1;
  ProfileSet all_fixed;
  all_fixed.add({triad, copy}, small_platform().chunk_bytes());
  EXPECT_TRUE(kernels_without_fixed_cost(workload, all_fixed).empty());
  EXPECT_EQ(fixed_cost_note(workload, all_fixed), "");
  EXPECT_NE(fixed_cost_note(workload, set).find("the profile of triad has no fixed cost"), std::string::npos);
}

// A footprint between two profiled ones: each neighbour's grid at the same fast fractions, linear in the
// footprint (here the pass times are proportional to the footprint, so blending the times or the seconds per byte
// agree; the test after this one tells them apart). Outside the profiled range (or for a command, whose footprint
// only names its fast share) it is an input error.
TEST(Instance, AFootprintBetweenTwoProfiledOnesIsInterpolatedAtEqualFastFractions) {
  const auto platform = small_platform();  // 10 MiB chunks
  ProfileRow small_slow{{"triad", 20 * kMiB, 1, 0}, 2.0, 2.0, 2.0, 1, 1.0};
  small_slow.fixed_s = 0.1;
  ProfileRow small_fast{{"triad", 20 * kMiB, 1, 2}, 1.0, 1.0, 1.0, 1, 1.0};  // all fast
  small_fast.fixed_s = 0.1;
  ProfileRow large_slow{{"triad", 60 * kMiB, 1, 0}, 6.0, 6.0, 6.0, 1, 1.0};
  large_slow.fixed_s = 0.3;
  ProfileRow large_fast{{"triad", 60 * kMiB, 1, 6}, 3.0, 3.0, 3.0, 1, 1.0};  // all fast
  large_fast.fixed_s = 0.3;
  ProfileSet set;
  set.add({small_slow, small_fast, large_slow, large_fast}, platform.chunk_bytes());
  const auto times = task_time_table(set, "triad", 40 * kMiB, platform, 2);  // halfway
  EXPECT_DOUBLE_EQ(times[1 * 11 + 0], 0.5 * (0.1 + 2 * 2.0) + 0.5 * (0.3 + 2 * 6.0));  // all slow
  EXPECT_DOUBLE_EQ(times[1 * 11 + 4], 0.5 * (0.1 + 2 * 1.0) + 0.5 * (0.3 + 2 * 3.0));  // 40 MiB fast: all fast
  // 2 chunks = half of 40 MiB fast: half way between each neighbour's all-slow and all-fast time.
  EXPECT_DOUBLE_EQ(times[1 * 11 + 2], 0.5 * (0.1 + 2 * 1.5) + 0.5 * (0.3 + 2 * 4.5));
  EXPECT_THROW((void)task_time_table(set, "triad", 80 * kMiB, platform, 2), InputError);
  EXPECT_THROW((void)task_time_table(set, "triad", 10 * kMiB, platform, 2), InputError);
  ProfileSet commands;
  commands.add({{{"command:a", 20 * kMiB, 1, 0}, 2.0, 2.0, 2.0, 1, 0.0}, {{"command:a", 60 * kMiB, 1, 0}, 6.0, 6.0, 6.0, 1, 0.0}},
               platform.chunk_bytes());
  EXPECT_THROW((void)task_time_table(commands, "command:a", 40 * kMiB, platform, 1), InputError);
}

// Between two footprints whose passes stream at different seconds per byte (the smaller one faster, as in a
// cache): 20 MiB at 1.0 s per pass (0.05 s/MiB, fixed 0.1 s), 60 MiB at 6.0 s (0.1 s/MiB, fixed 0.3 s). At 40 MiB
// (halfway) the fixed cost is 0.2 s and a pass 40 MiB x 0.075 s/MiB = 3.0 s: 2 passes take 6.2 s. At 30 MiB (a
// quarter of the way) 0.15 s + 2 x 30 x 0.0625 = 3.9 s. The chord of the pass times (1.0 and 6.0 s) would say
// 3.5 s per pass at 40 MiB (7.2 s), more than the seconds per byte of either neighbour allow between them.
TEST(Instance, BetweenTwoFootprintsAPassCostsTheFootprintTimesTheInterpolatedSecondsPerByte) {
  const auto platform = small_platform();
  ProfileRow small{{"triad", 20 * kMiB, 1, 0}, 1.0, 1.0, 1.0, 1, 1.0};
  small.fixed_s = 0.1;
  ProfileRow large{{"triad", 60 * kMiB, 1, 0}, 6.0, 6.0, 6.0, 1, 1.0};
  large.fixed_s = 0.3;
  ProfileSet set;
  set.add({small, large}, platform.chunk_bytes());
  EXPECT_DOUBLE_EQ(task_time_table(set, "triad", 40 * kMiB, platform, 2)[1 * 11 + 0], 0.2 + 2 * 40 * 0.075);
  EXPECT_DOUBLE_EQ(task_time_table(set, "triad", 30 * kMiB, platform, 2)[1 * 11 + 0], 0.15 + 2 * 30 * 0.0625);
  // At a profiled footprint nothing is scaled: fixed + passes x the pass.
  EXPECT_DOUBLE_EQ(task_time_table(set, "triad", 60 * kMiB, platform, 2)[1 * 11 + 0], 0.3 + 2 * 6.0);
}

ProfileSidecar sidecar_with_chunk_bytes(double chunk_bytes) {
  ProfileSidecar sidecar;
  sidecar.chunk_bytes = chunk_bytes;
  return sidecar;
}

TEST(Instance, ProfileSetReadsChunkBytesFromTheSidecar) {
  const auto dir = testing::scratch_dir();
  const auto csv = dir / "p.csv";
  {
    ProfileCsvWriter writer(csv, ProfileCsvWriter::Mode::create);
    writer.append({{"triad", 40 * kMiB, 1, 1}, 2.0, 2.0, 2.0, 1, 1.0});
  }
  EXPECT_THROW((void)load_profile_set({csv}), InputError);  // no sidecar yet
  write_profile_sidecar(csv, sidecar_with_chunk_bytes(8.0 * kMiB));
  const auto set = load_profile_set({csv});
  ASSERT_EQ(set.entries.size(), 1U);
  EXPECT_EQ(set.entries[0].chunk_bytes, 8.0 * kMiB);
  try {
    (void)load_profile_set({csv, csv});
    FAIL() << "the same point twice was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), csv.string() + ":2: the point kernel=triad footprint_bytes=41943040 cores=1 "
                                                     "chunks=1 is also at " + csv.string() + ":2");
  }
}

TEST(Sidecar, RoundTripsTheTypedFieldsAndTheMeasurersOwn) {
  config::PlatformConfig platform = small_platform();
  platform.source = "small.toml";
  SweepConfig sweep;
  sweep.reps = 7;
  sweep.warmup = 2;
  ProfileSidecar written = make_profile_sidecar(
      platform, sweep, {{"measurer", "stream"}, {"tier_backend", "emulated"}, {"emulation_ratio", 5.0}});
  written.sweep = {{"points", 12}, {"interrupted", false}};
  const auto csv = testing::scratch_dir() / "p.csv";
  write_profile_sidecar(csv, written);
  const ProfileSidecar read = read_profile_sidecar(csv);
  EXPECT_EQ(nlohmann::json(read), nlohmann::json(written));
  EXPECT_EQ(read.platform.name, "small");
  EXPECT_EQ(read.platform.fast_chunks, 10U);
  EXPECT_EQ(read.chunk_bytes, 10.0 * kMiB);
  EXPECT_EQ(read.reps, 7U);
  EXPECT_EQ(read.measurer["tier_backend"], "emulated");
  EXPECT_EQ(read.sweep["points"], 12);
  EXPECT_NO_THROW(check_resume_compatible(read, written));
  ProfileSidecar other = written;
  other.measurer["emulation_ratio"] = 3.0;
  EXPECT_THROW(check_resume_compatible(read, other), UsageError);
}

class SidecarRejects : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(SidecarRejects, WithAnInputErrorNamingTheField) {
  try {
    (void)parse_profile_sidecar(GetParam().first, "p.json");
    FAIL() << "accepted " << GetParam().first;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), GetParam().second);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, SidecarRejects,
    ::testing::Values(
        std::pair{"{}", "p.json: missing \"chunk_bytes\""},
        std::pair{R"({"chunk_bytes": 0})", "p.json: chunk_bytes must be finite, > 0 and <= 1.1259e+15, got 0"},
        std::pair{R"({"chunk_bytes": -8})", "p.json: chunk_bytes must be finite, > 0 and <= 1.1259e+15, got -8"},
        std::pair{R"({"chunk_bytes": "8"})", "p.json: chunk_bytes is not a number"},
        std::pair{R"({"chunk_bytes": 1e999})", "p.json: not valid JSON at byte 17: number overflow parsing '1e999'"},
        std::pair{R"({"chunk_bytes": 8, "reps": -1})", "p.json: reps must be an integer from 0 to 4294967295, got -1"},
        std::pair{R"({"chunk_bytes": 8, "platform": []})", "p.json: platform: is not a JSON object"},
        std::pair{R"({"chunk_bytes": 8, "platform": {"cores": "4"}})", "p.json: platform: cores is not an integer"},
        std::pair{R"({"chunk_bytes": 8, "host": 3})", "p.json: host is not a string"},
        std::pair{"[8]", "p.json: is not a JSON object"}));

// `cosched instance` end to end: output checked before the work, never replaced without --force, write errors are
// errors. Exit code and one line on stderr.
using test_support::CommandResult;

CommandResult run_cosched(const std::string& arguments, const std::filesystem::path& dir) {
  return test_support::run_program("cosched", arguments, dir);
}

TEST(InstanceCli, OutputIsCheckedFirstAndNeverReplacedWithoutForce) {
  if (!std::filesystem::exists(COSCHED_BIN_DIR "/cosched")) GTEST_SKIP() << "cosched executable not built";
  const auto dir = testing::scratch_dir();
  const auto csv = dir / "p.csv";
  {
    ProfileCsvWriter writer(csv, ProfileCsvWriter::Mode::create);
    writer.append({{"triad", 64 * kMiB, 1, 0}, 2.0, 2.0, 2.0, 1, 1.0});
    writer.append({{"triad", 64 * kMiB, 1, 20}, 1.0, 1.0, 1.0, 1, 1.0});
  }
  write_profile_sidecar(csv, sidecar_with_chunk_bytes(16.0 * (1ULL << 30) / 20));
  testing::write_file(dir / "w.toml", "[[tasks]]\nkernel = \"triad\"\nfootprint_mib = 64\ncount = 2\n");
  const std::string command = "instance --workload " + (dir / "w.toml").string() + " --profiles " + csv.string() +
                              " --platform " COSCHED_SOURCE_DIR "/configs/platforms/knl-7210-flat.toml -o ";
  const auto expect = [](const CommandResult& result, int code, const std::string& fragment) {
    test_support::expect_one_line_error(result, code, fragment, "cosched instance");
  };
  const auto output = dir / "inst.json";
  ASSERT_EQ(run_cosched(command + output.string(), dir).exit_code, 0);
  const auto instance = sched::load_instance(output);
  ASSERT_EQ(instance.task_count(), 2U);
  EXPECT_EQ(instance.tasks()[0].attributes["kernel"], "triad");
  expect(run_cosched(command + output.string(), dir), 2, "only with --force");
  EXPECT_EQ(run_cosched(command + output.string() + " --force", dir).exit_code, 0);
  expect(run_cosched(command + dir.string(), dir), 2, "is a directory");
  expect(run_cosched(command + "/dev/full", dir), 5, "No space left on device");
  testing::write_file(csv, std::string(kProfileCsvHeaderWithoutStatus) + "\ntriad,67108864,1,0,-2,-2,-2,1,1\n");
  expect(run_cosched(command + (dir / "other.json").string(), dir), 3, "p.csv:2: time_s must be finite");
}

}  // namespace
}  // namespace cosched::profiler
