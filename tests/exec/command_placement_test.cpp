// A command task's fast memory, read back from the kernel: the launcher's task builder places a command with each
// mechanism (as on a node whose fast and slow tier are both NUMA node 0, the only node here), the child process
// runs tests/programs/memory_probe, which reports the policy it runs under (get_mempolicy) and the nodes of its
// pages (move_pages). Also: autohbw's environment, the system-wide weights of weighted interleave, and timeouts.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <numaif.h>
#include <signal.h>

#include <fstream>
#include <sstream>

#include "cosched/common/error.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/command_placement.hpp"
#include "cosched/platform/core_allocator.hpp"
#include "cosched/platform/mempolicy.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "test_support.hpp"

namespace cosched::exec {
namespace {

const std::string kProbe = COSCHED_BIN_DIR "/memory_probe";
constexpr double kMiB = 1024.0 * 1024.0;

// A tier that places commands, with node 0 as both its fast and its slow node (valid on this one-node machine).
TierSetup node0_tier(const std::string& mechanism) {
  TierSetup tier;
  tier.backend = "numa";
  tier.chunk_bytes = 4 * kMiB;
  tier.fast_nodes = {0};
  tier.slow_nodes = {0};
  tier.command_placement = mechanism;
  return tier;
}

platform::Grant one_core(std::size_t chunks) {
  static platform::CoreAllocator cores(platform::Topology::this_system());
  platform::Grant grant;
  grant.cores = cores.allocate(1);
  cores.release(grant.cores);
  grant.amounts = {1, static_cast<int>(chunks)};
  grant.fast_chunks = chunks;
  return grant;
}

config::WorkloadTask probe_task(std::vector<std::string> extra = {}) {
  config::WorkloadTask task;
  task.id = "probe";
  task.command = {kProbe, "--mib", "8"};
  task.command.insert(task.command.end(), extra.begin(), extra.end());
  task.footprint_bytes = static_cast<std::uint64_t>(8 * kMiB);
  return task;
}

// Runs `launch` and returns what the probe reported.
nlohmann::json run_probe(TaskLaunch launch) {
  const auto dir = testing::scratch_dir();
  launch.spec.stdout_path = dir / "probe.out";
  ChildProcess child = ChildProcess::spawn(launch.spec);
  const ExitInfo exit = child.reap();
  EXPECT_TRUE(exit.ok()) << exit.describe();
  std::ifstream in(launch.spec.stdout_path);
  return nlohmann::json::parse(in);
}

struct PlacementCase {
  std::string mechanism;
  std::string mode;  // what get_mempolicy reports in the child
};

class CommandPlacement : public ::testing::TestWithParam<PlacementCase> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kProbe)) GTEST_SKIP() << "memory_probe not built";
  }
};

TEST_P(CommandPlacement, TheChildRunsUnderThePolicyAndItsPagesAreOnTheNode) {
  const auto& [mechanism, mode] = GetParam();
  // 1 chunk of 4 MiB for an 8 MiB footprint: a fraction of 1/2.
  const TaskLaunch launch = build_task_launch(probe_task(), one_core(1), node0_tier(mechanism), {}, {});
  EXPECT_EQ(launch.fast_bytes, static_cast<std::size_t>(4 * kMiB));
  const nlohmann::json report = run_probe(launch);
  EXPECT_EQ(report["mode"], mode) << launch.placement;
  EXPECT_EQ(report["nodes"], nlohmann::json::array({0}));
  EXPECT_EQ(report["pages_on"].size(), 1U) << report.dump();
  EXPECT_EQ(report["pages_on"]["0"], 8 * 256) << report.dump();  // every 4 KiB page of 8 MiB on node 0
  EXPECT_EQ(report["cpus"], 1);
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, CommandPlacement,
                         ::testing::Values(PlacementCase{"preferred", "preferred"}, PlacementCase{"bind", "bind"},
                                           PlacementCase{"weighted-interleave", "weighted-interleave"}),
                         [](const auto& test_info) {
                           std::string name = test_info.param.mechanism;
                           std::erase(name, '-');
                           return name;
                         });

TEST_P(CommandPlacement, WithoutAFastShareTheCommandIsBoundToTheSlowNodes) {
  const TaskLaunch launch = build_task_launch(probe_task(), one_core(0), node0_tier(GetParam().mechanism), {}, {});
  EXPECT_EQ(launch.fast_bytes, 0U);
  ASSERT_TRUE(launch.applied_fraction.has_value());
  EXPECT_EQ(*launch.applied_fraction, 0.0);
  EXPECT_EQ(run_probe(launch)["mode"], "bind");
}

TEST(CommandPlacementFraction, WeightedInterleaveSaysTheFractionItApplies) {
  const TaskLaunch launch = build_task_launch(probe_task(), one_core(1), node0_tier("weighted-interleave"), {}, {});
  ASSERT_TRUE(launch.applied_fraction.has_value());
  EXPECT_NEAR(*launch.applied_fraction, 0.5, 1e-9);
  EXPECT_NE(launch.placement.find("system-wide"), std::string::npos) << launch.placement;
  // preferred cannot hold a fraction, and says so by giving none.
  EXPECT_FALSE(build_task_launch(probe_task(), one_core(1), node0_tier("preferred"), {}, {}).applied_fraction);
}

TEST(CommandPlacementFraction, WeightsApproximateTheFractionWithinRange) {
  for (const double wanted : {0.01, 0.2, 1.0 / 3.0, 0.5, 0.75, 0.999}) {
    const auto split = platform::weights_for_fraction(wanted, {1}, {0});
    EXPECT_NEAR(split.applied_fraction, wanted, 0.005) << wanted;
    for (const auto& [node, weight] : split.weights) {
      EXPECT_GE(weight, platform::kMinInterleaveWeight);
      EXPECT_LE(weight, platform::kMaxInterleaveWeight);
    }
  }
  EXPECT_THROW((void)platform::weights_for_fraction(1.0, {1}, {0}), UsageError);
}

TEST(CommandPlacementFraction, WeightedInterleaveWithoutAFootprintIsRefused) {
  config::WorkloadTask task = probe_task();
  task.footprint_bytes = 0;
  EXPECT_THROW((void)build_task_launch(task, one_core(1), node0_tier("weighted-interleave"), {}, {}), UsageError);
}

TEST(InterleaveWeights, TasksNeedingOtherSystemWideWeightsCannotRunTogether) {
  if (!platform::weighted_interleave_available()) GTEST_SKIP() << "no weighted interleave in this kernel";
  const auto now = platform::read_interleave_weights({0});
  const platform::InterleaveWeightsLease held(now);  // the weights as they are: nothing is written
  EXPECT_FALSE(held.changed_system_weights());
  const platform::InterleaveWeightsLease same(now);
  platform::InterleaveWeights other = now;
  other[0] = now.at(0) == 1 ? 2 : 1;
  EXPECT_THROW(platform::InterleaveWeightsLease{other}, ResourceError);
  EXPECT_EQ(platform::read_interleave_weights({0}), now) << "a refused lease must not write";
}

// Placement autohbw with a stand-in library in `dir`: not a library, so the dynamic loader says it cannot preload
// it and runs the program anyway.
TierSetup autohbw_tier(const std::filesystem::path& dir) {
  std::ofstream(dir / "libautohbw.so") << "";
  TierSetup tier = node0_tier("autohbw");
  tier.autohbw_library = dir / "libautohbw.so";
  return tier;
}

TEST(Autohbw, TheChildGetsThePreloadAndTheThreshold) {
  if (!std::filesystem::exists(kProbe)) GTEST_SKIP() << "memory_probe not built";
  const auto dir = testing::scratch_dir();
  TierSetup tier = autohbw_tier(dir);
  tier.autohbw_threshold_bytes = 64 * 1024;
  const TaskLaunch launch =
      build_task_launch(probe_task({"--env", "LD_PRELOAD", "--env", "AUTO_HBW_SIZE"}), one_core(1), tier, {}, {});
  const nlohmann::json report = run_probe(launch);
  EXPECT_EQ(report["env"]["LD_PRELOAD"], (dir / "libautohbw.so").string());
  EXPECT_EQ(report["env"]["AUTO_HBW_SIZE"], "64K");
  EXPECT_EQ(report["mode"], "default");  // autohbw places allocations itself, not by a policy
  tier.autohbw_library = dir / "missing.so";
  EXPECT_THROW((void)build_task_launch(probe_task(), one_core(1), tier, {}, {}), ResourceError);
}

// A workload command's own env (what it was profiled with) reaches the child, under its placement's variables.
TEST(CommandEnvironment, TheTasksVariablesReachTheChildAndThePlacementsWin) {
  if (!std::filesystem::exists(kProbe)) GTEST_SKIP() << "memory_probe not built";
  const auto dir = testing::scratch_dir();
  const TierSetup tier = autohbw_tier(dir);
  config::WorkloadTask task = probe_task({"--env", "OMP_PROC_BIND", "--env", "LD_PRELOAD"});
  task.environment = {"LD_PRELOAD=/not/this.so", "OMP_PROC_BIND=true"};
  const nlohmann::json report = run_probe(build_task_launch(task, one_core(1), tier, {}, {}));
  EXPECT_EQ(report["env"]["OMP_PROC_BIND"], "true");
  EXPECT_EQ(report["env"]["LD_PRELOAD"], (dir / "libautohbw.so").string());
}

TEST(ChildTimeout, ReapWithinReturnsNothingWhileTheChildRuns) {
  ChildProcess child = ChildProcess::spawn({{"/bin/sleep", "30"}, {platform::allowed_pus().front()}, {}, {}, {}, {}, {}});
  EXPECT_FALSE(child.reap_within(0.05).has_value());
  child.signal_tree(SIGKILL);
  const auto exit = child.reap_within(30.0);
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->signal, SIGKILL);
}

// A real tier this machine does not have is refused when the tier is set up — before any work — as the backend
// itself refuses it (issue #27's audit: a numa platform on a one-node machine used to fail every task at run time,
// exit 6, leaving a journal and logs). On a machine with fast NUMA nodes there is nothing to refuse.
TEST(TierSetup, ARealTierThisMachineLacksIsRefusedWhenSetUp) {
  if (!platform::detected_tier_nodes().fast.empty()) GTEST_SKIP() << "this machine has fast NUMA nodes";
  EXPECT_THROW((void)make_tier_setup("numa", 5.0, kMiB), ResourceError);
  EXPECT_NO_THROW((void)make_tier_setup("emulated", 5.0, kMiB));
  EXPECT_NO_THROW((void)make_tier_setup("none", 5.0, kMiB));
}

}  // namespace
}  // namespace cosched::exec
