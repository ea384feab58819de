// The demo's batch (issue 22 moved it into the profiler): the compiled-in mixed batch is the file a user reads,
// folded back into (kernel, footprint, count) groups in file order; --quick halves every count, keeping at least 1.
#include "cosched/profiler/demo_batch.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "cosched/config/workload.hpp"
#include "cosched/exec/workload_file.hpp"

namespace cosched::profiler::demo {
namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

config::PlatformConfig node() {
  config::PlatformConfig platform;
  platform.cores = 2;
  platform.fast_capacity_bytes = 480 * kMiB;
  platform.fast_chunks = 20;
  return platform;
}

// The file's tasks as the one workload parser reads them, each a group of one.
std::vector<config::WorkloadTask> file_tasks() {
  config::WorkloadReadOptions options;
  options.platform = node();
  options.known_kernels = exec::stream_kernel_names();
  return config::load_workload(COSCHED_SOURCE_DIR "/configs/workloads/demo-mixed.toml", options).tasks;
}

TEST(DemoBatch, MixedGroupsAreTheFileInOrder) {
  const std::vector<config::WorkloadTask> tasks = file_tasks();
  const std::vector<config::StreamTaskGroup> groups = demo_mixed_groups(node(), false);
  ASSERT_FALSE(groups.empty());
  std::size_t next = 0;
  for (const config::StreamTaskGroup& group : groups) {
    ASSERT_GE(group.count, 1U) << group.kernel;
    for (unsigned i = 0; i < group.count; ++i, ++next) {
      ASSERT_LT(next, tasks.size()) << "more grouped tasks than the file holds";
      EXPECT_EQ(tasks[next].kernel, group.kernel) << "task " << next;
      EXPECT_EQ(tasks[next].footprint_bytes, group.footprint_bytes) << "task " << next;
    }
  }
  EXPECT_EQ(next, tasks.size()) << "every task of the file is in one group";
  // Consecutive groups differ (a run of equal tasks is one group).
  for (std::size_t i = 1; i < groups.size(); ++i) {
    EXPECT_FALSE(groups[i].kernel == groups[i - 1].kernel && groups[i].footprint_bytes == groups[i - 1].footprint_bytes)
        << "groups " << i - 1 << " and " << i;
  }
}

TEST(DemoBatch, QuickHalvesEveryCountKeepingOne) {
  const auto full = demo_mixed_groups(node(), false);
  const auto quick = demo_mixed_groups(node(), true);
  ASSERT_EQ(full.size(), quick.size());
  for (std::size_t i = 0; i < full.size(); ++i) {
    EXPECT_EQ(quick[i].kernel, full[i].kernel);
    EXPECT_EQ(quick[i].footprint_bytes, full[i].footprint_bytes);
    EXPECT_EQ(quick[i].count, std::max(1U, full[i].count / 2)) << full[i].kernel;
  }
}

}  // namespace
}  // namespace cosched::profiler::demo
