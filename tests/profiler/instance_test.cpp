// Tables to tasks: the instance JSON's shape (resources, dense row-major times of length prod(P_i + 1), null
// without cores), capped fractions, passes, and errors for profiles that do not cover the workload.
#include "cosched/profiler/instance_builder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "cosched/common/error.hpp"
#include "cosched/profiler/knl_model.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
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
  const auto instance = build_instance(workload, profiles, platform);

  ASSERT_EQ(instance["resources"].size(), 2U);
  EXPECT_EQ(instance["resources"][0]["name"], "cores");
  EXPECT_EQ(instance["resources"][0]["capacity"], 4);
  EXPECT_EQ(instance["resources"][1]["name"], "fast_chunks");
  EXPECT_EQ(instance["resources"][1]["capacity"], 10);
  ASSERT_EQ(instance["tasks"].size(), 3U);
  std::set<std::string> ids;
  for (const auto& task : instance["tasks"]) {
    ids.insert(task["id"].get<std::string>());
    EXPECT_EQ(task["kernel"], "triad");
    EXPECT_EQ(task["footprint_bytes"], 40 * kMiB);
    const auto& times = task["times"];
    ASSERT_EQ(times.size(), (4U + 1) * (10U + 1));
    for (unsigned k = 0; k <= 10; ++k) EXPECT_TRUE(times[k].is_null());  // p_cores = 0
    // Row-major, cores slowest: index c * 11 + k holds the measured (c, k) time, times 2 passes.
    for (unsigned c = 1; c <= 4; ++c) {
      for (unsigned k = 0; k <= 10; ++k) {
        const double expected =
            2 * knl_model_time({}, 40 * kMiB, c, fast_fraction(40 * kMiB, k, platform.chunk_bytes()));
        EXPECT_DOUBLE_EQ(times[c * 11 + k].get<double>(), expected) << c << "," << k;
      }
    }
  }
  EXPECT_EQ(ids, (std::set<std::string>{"triad-40MiB-0", "triad-40MiB-1", "triad-40MiB-2"}));
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

TEST(Instance, ProfileSetReadsChunkBytesFromTheSidecar) {
  const auto dir = testing::scratch_dir();
  const auto csv = dir / "p.csv";
  {
    ProfileCsvWriter writer(csv, ProfileCsvWriter::Mode::create);
    writer.append({{"triad", 40 * kMiB, 1, 1}, 2.0, 2.0, 2.0, 1, 1.0});
  }
  EXPECT_THROW((void)load_profile_set({csv}), InputError);  // no sidecar yet
  write_profile_context(csv, {{"chunk_bytes", 8.0 * kMiB}});
  const auto set = load_profile_set({csv});
  ASSERT_EQ(set.entries.size(), 1U);
  EXPECT_EQ(set.entries[0].chunk_bytes, 8.0 * kMiB);
  EXPECT_THROW((void)load_profile_set({csv, csv}), InputError);  // the same point twice
}

}  // namespace
}  // namespace cosched::profiler
