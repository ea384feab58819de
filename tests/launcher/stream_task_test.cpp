// A real STREAM task through the launcher: stream_bench on its granted core with its fast share (emulated tier
// here), validated. Statuses and placement only, no timing.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cosched/launcher/journal/file.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "test_support.hpp"

namespace cosched::launcher {
namespace {

TEST(StreamTask, RunsStreamBenchOnItsCoresWithItsFastShareAndValidates) {
  const std::filesystem::path stream_bench = std::filesystem::path(COSCHED_BIN_DIR) / "stream_bench";
  if (!std::filesystem::exists(stream_bench)) GTEST_SKIP() << "stream_bench not built: " << stream_bench;
  const auto dir = testing::scratch_dir("stream-task");
  sim::LaunchPlan plan;
  plan.algorithm = "test";
  plan.resource_names = {"cores", "fast_chunks"};
  // Every allowed core is schedulable, and both tasks are planned at 0: on this 2-core machine the second one
  // gets core 1, which stream_bench must find inside its own affinity (a child sees only its granted cores).
  const auto cores = static_cast<int>(platform::allowed_cores().size());
  plan.capacities = {cores, 4};
  plan.tasks = {{"triad-4MiB-0", {1, 1}, 0, 0.01, -1}, {"write-4MiB-0", {1, 3}, 0, 0.01, -1}};
  config::Workload workload;
  for (const auto& [id, kernel] : {std::pair{"triad-4MiB-0", "triad"}, std::pair{"write-4MiB-0", "write"}}) {
    config::WorkloadTask task;
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
  settings.tier = exec::make_tier_setup("emulated", 5.0, 2.0 * (1 << 20));  // 2 MiB chunks
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
  EXPECT_EQ(std::get<BatchEnd>(journal.back().event).status, BatchStatus::ok);
  // Each task's threads ran on the PUs the launcher granted it.
  for (const auto& line : journal) {
    const auto* start = std::get_if<TaskStart>(&line.event);
    if (start == nullptr) continue;
    const std::string& id = start->task;
    std::ifstream task_out(dir / "run.jsonl.logs" / (id + ".out"));
    const auto task_result = nlohmann::json::parse(task_out);
    EXPECT_TRUE(task_result["validated"].get<bool>()) << id;
    const std::vector<unsigned>& granted = start->pus;
    for (const auto& placement : task_result["placements"]) {
      const auto observed = placement["observed_pu"].get<unsigned>();
      EXPECT_NE(std::find(granted.begin(), granted.end(), observed), granted.end()) << id << " ran on " << observed;
    }
  }
}

}  // namespace
}  // namespace cosched::launcher
