// A real STREAM task through the launcher: stream_bench on its granted core with its fast share (emulated tier
// here), validated. Statuses and placement only, no timing.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cosched/launcher/journal.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

TEST(StreamTask, RunsStreamBenchOnItsCoresWithItsFastShareAndValidates) {
  const std::filesystem::path stream_bench = std::filesystem::path(COSCHED_BIN_DIR) / "stream_bench";
  if (!std::filesystem::exists(stream_bench)) GTEST_SKIP() << "stream_bench not built: " << stream_bench;
  const auto dir = testing::scratch_dir("stream-task");
  LaunchPlan plan;
  plan.algorithm = "test";
  plan.resource_names = {"cores", "fast_chunks"};
  plan.capacities = {1, 4};
  plan.tasks = {{"triad-4MiB-0", {1, 1}, 0, 0.01, -1}, {"write-4MiB-0", {1, 4}, 0.01, 0.01, -1}};
  Workload workload;
  for (const auto& [id, kernel] : {std::pair{"triad-4MiB-0", "triad"}, std::pair{"write-4MiB-0", "write"}}) {
    WorkloadTask task;
    task.id = id;
    task.kernel = kernel;
    task.footprint_bytes = 4 << 20;
    task.passes = 2;
    workload.tasks.push_back(task);
  }
  LaunchSettings settings;
  settings.journal = dir / "run.jsonl";
  settings.stream_bench = stream_bench;
  settings.clock.catch_stop_signals = false;
  settings.tier = make_tier_setup("emulated", 5.0, 2.0 * (1 << 20));  // 2 MiB chunks
  const LaunchSummary summary = launch(plan, workload, settings);
  ASSERT_EQ(summary.observed.completed, 2U) << std::ifstream(dir / "run.jsonl.logs" / "triad-4MiB-0.err").rdbuf();

  std::ifstream out(dir / "run.jsonl.logs" / "triad-4MiB-0.out");
  const auto result = nlohmann::json::parse(out);
  EXPECT_TRUE(result["validated"].get<bool>());
  EXPECT_EQ(result["tier_backend"], "emulated");
  EXPECT_TRUE(result["emulated"].get<bool>());
  EXPECT_DOUBLE_EQ(result["fast_fraction"].get<double>(), 0.5);  // 1 chunk of 2 MiB for a 4 MiB task
  EXPECT_EQ(result["reps"], 2);
  const auto journal = read_journal(settings.journal).events;
  EXPECT_EQ(journal.back()["status"], "ok");
}

}  // namespace
}  // namespace cosched::launcher
