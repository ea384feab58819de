// The digests a journal is stamped with (FNV-1a itself: tests/common/digest_test.cpp): stability (the same inputs give the same digests, the
// order of construction does not matter), and each input's digest changing with exactly its own input.
#include "cosched/launcher/journal/inputs.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cosched/common/digest.hpp"

namespace cosched::launcher {
namespace {

using config::Workload;
using config::WorkloadTask;

sim::LaunchPlan two_task_plan() {
  sim::LaunchPlan plan;
  plan.algorithm = "t-list-lpt";
  plan.resource_names = {"cores", "fast_chunks"};
  plan.capacities = {2, 20};
  plan.tasks = {{"triad-96MiB-0", {1, 4}, 0.0, 1.5, -1}, {"job", {1, 0}, 0.0, 2.25, -1}};
  return plan;
}

Workload two_task_workload() {
  Workload workload;
  workload.source = "w.json";
  WorkloadTask stream;
  stream.id = "triad-96MiB-0";
  stream.kernel = "triad";
  stream.footprint_bytes = 96ULL << 20;
  stream.passes = 7;
  WorkloadTask command;
  command.id = "job";
  command.command = {"/bin/prog", "{threads}"};
  command.timeout_s = 60;
  workload.tasks = {command, stream};
  return workload;
}

exec::TierSetup emulated_tier() {
  exec::TierSetup tier;
  tier.backend = "emulated";
  tier.emulation_ratio = 5;
  tier.chunk_bytes = 24.0 * (1 << 20);
  return tier;
}

BatchInputs inputs(const sim::LaunchPlan& plan, const Workload& workload, const exec::TierSetup& tier) {
  return batch_inputs(plan, workload, tier);
}

TEST(JournalInputs, TheSameInputsGiveTheSameDigests) {
  const BatchInputs first = inputs(two_task_plan(), two_task_workload(), emulated_tier());
  const BatchInputs second = inputs(two_task_plan(), two_task_workload(), emulated_tier());
  EXPECT_TRUE(input_differences(first, second).empty());
  EXPECT_EQ(first.schedule.digest.rfind("fnv1a64:", 0), 0U);
  EXPECT_EQ(first.schedule.digest.size(), std::string("fnv1a64:").size() + 16);
  // The workload's own order, its source path and entries the plan does not name are not what runs.
  Workload reordered = two_task_workload();
  std::swap(reordered.tasks[0], reordered.tasks[1]);
  reordered.source = "elsewhere/w.json";
  WorkloadTask unused;
  unused.id = "unused";
  unused.command = {"/bin/true"};
  reordered.tasks.push_back(unused);
  EXPECT_EQ(inputs(two_task_plan(), reordered, emulated_tier()).workload.digest, first.workload.digest);
  // Digests are stable across builds and machines: journals written by another cosched must still resume. The
  // canonical form is the workload schema's own writer (config::to_json), keys sorted.
  EXPECT_EQ(first.workload.digest, digest_text(R"([{"footprint_bytes":100663296,"id":"triad-96MiB-0","kernel":"triad",)"
                                               R"("passes":7},{"command":["/bin/prog","{threads}"],)"
                                               R"("id":"job","timeout_s":60.0}])"));
}

// Which digests changed between the reference inputs and `changed`.
std::vector<std::string> changed_inputs(const BatchInputs& changed) {
  std::vector<std::string> names;
  const BatchInputs reference = inputs(two_task_plan(), two_task_workload(), emulated_tier());
  for (const std::string& difference : input_differences(reference, changed)) {
    names.push_back(difference.substr(0, difference.find(':')));
  }
  return names;
}

using Names = std::vector<std::string>;

TEST(JournalInputs, EachDigestFollowsItsOwnInput) {
  sim::LaunchPlan other_algorithm = two_task_plan();
  other_algorithm.algorithm = "t-pack-ff";
  EXPECT_EQ(changed_inputs(inputs(other_algorithm, two_task_workload(), emulated_tier())), Names{"schedule"});
  sim::LaunchPlan other_start = two_task_plan();
  other_start.tasks[1].planned_start = 1.5;
  EXPECT_EQ(changed_inputs(inputs(other_start, two_task_workload(), emulated_tier())), Names{"schedule"});
  sim::LaunchPlan other_alloc = two_task_plan();
  other_alloc.tasks[0].demand = {2, 4};
  EXPECT_EQ(changed_inputs(inputs(other_alloc, two_task_workload(), emulated_tier())), Names{"schedule"});

  Workload other_passes = two_task_workload();
  other_passes.tasks[1].passes = 8;
  EXPECT_EQ(changed_inputs(inputs(two_task_plan(), other_passes, emulated_tier())), Names{"workload"});
  Workload other_command = two_task_workload();
  other_command.tasks[0].command = {"/bin/other"};
  EXPECT_EQ(changed_inputs(inputs(two_task_plan(), other_command, emulated_tier())), Names{"workload"});

  exec::TierSetup other_ratio = emulated_tier();
  other_ratio.emulation_ratio = 4;
  EXPECT_EQ(changed_inputs(inputs(two_task_plan(), two_task_workload(), other_ratio)), Names{"platform"});
  exec::TierSetup other_chunks = emulated_tier();
  other_chunks.chunk_bytes *= 2;
  EXPECT_EQ(changed_inputs(inputs(two_task_plan(), two_task_workload(), other_chunks)), Names{"platform"});
  exec::TierSetup other_backend = emulated_tier();
  other_backend.backend = "none";
  EXPECT_EQ(changed_inputs(inputs(two_task_plan(), two_task_workload(), other_backend)), Names{"platform"});

  // The node's capacities are what the schedule was planned for and what the platform offers: both change.
  sim::LaunchPlan more_cores = two_task_plan();
  more_cores.capacities[0] = 4;
  EXPECT_EQ(changed_inputs(inputs(more_cores, two_task_workload(), emulated_tier())), (Names{"schedule", "platform"}));
}

TEST(JournalInputs, TheEmulationRatioOnlyCountsWhereTheTierIsEmulated) {
  exec::TierSetup none = emulated_tier();
  none.backend = "none";
  exec::TierSetup none_other_ratio = none;
  none_other_ratio.emulation_ratio = 9;
  EXPECT_EQ(inputs(two_task_plan(), two_task_workload(), none).platform.digest,
            inputs(two_task_plan(), two_task_workload(), none_other_ratio).platform.digest);
}

TEST(JournalInputs, ADifferenceSaysWhatTheJournalWasWrittenFor) {
  sim::LaunchPlan other = two_task_plan();
  other.algorithm = "t-pack-ff";
  const auto differences = input_differences(inputs(two_task_plan(), two_task_workload(), emulated_tier()),
                                             inputs(other, two_task_workload(), emulated_tier()));
  ASSERT_EQ(differences.size(), 1U);
  EXPECT_NE(differences[0].find("written for algorithm t-list-lpt"), std::string::npos) << differences[0];
  EXPECT_NE(differences[0].find("this launch has algorithm t-pack-ff"), std::string::npos) << differences[0];
}

// Issue 41 case 7: an interrupted closed-loop replay resumed without --replay closed ran the rest open loop,
// silently. The schedule's digest now holds what releases wait for, so such a resume is refused, naming the replay.
TEST(JournalInputs, TheScheduleDigestHoldsAClosedLoopReplaysGates) {
  const sim::LaunchPlan open = two_task_plan();
  sim::LaunchPlan closed = two_task_plan();
  closed.gates.push_back({sim::kNoGate, {1}, 1.5});
  closed.tasks[1].gate = 0;  // "job" is released once the first task's work is done
  const BatchInputs journal = inputs(closed, two_task_workload(), emulated_tier());
  const BatchInputs resumed = inputs(open, two_task_workload(), emulated_tier());
  const std::vector<std::string> differences = input_differences(journal, resumed);
  ASSERT_EQ(differences.size(), 1U);
  EXPECT_EQ(differences.front().rfind("schedule:", 0), 0U) << differences.front();
  EXPECT_NE(differences.front().find("1 releases waiting for earlier work (closed-loop replay)"), std::string::npos)
      << differences.front();
  EXPECT_EQ(resumed.schedule.summary.find("replay"), std::string::npos) << "a plan that is not online says nothing";
  sim::LaunchPlan other_gate = closed;
  other_gate.gates.front().follows = 0;
  EXPECT_NE(inputs(other_gate, two_task_workload(), emulated_tier()).schedule.digest, journal.schedule.digest);
}

}  // namespace
}  // namespace cosched::launcher
