// The cluster plan: partition invariants over algorithms and sizes, the cluster bound, the manifest's one parser
// and writer, and the plan folder written whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <unistd.h>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/io.hpp"
#include "sched/test_support.hpp"

namespace cosched::sched {
namespace {

using testing::close_or_below;

struct ClusterCase {
  std::string algorithm;
  std::size_t nodes;
  std::size_t tasks;
};

class ClusterPlanTest : public ::testing::TestWithParam<ClusterCase> {};

// Every task on exactly one node, every node's schedule valid on the node's capacities (plan() validates; checked
// again here), the cluster bound at most the plan's makespan (the slowest node) for every algorithm, and at most
// the largest of the nodes' own bounds, and LPT's guarantee on every node's area.
TEST_P(ClusterPlanTest, PartitionInvariants) {
  const ClusterCase& c = GetParam();
  const Instance instance = testing::random_dense_instance(17 + c.tasks, {4, 3}, c.tasks);
  const ClusterPlan plan = plan_cluster(find_algorithm(c.algorithm), instance, c.nodes, 2);
  ASSERT_EQ(plan.nodes.size(), c.nodes);
  std::multiset<std::string> ids;
  double slowest = 0.0;
  double largest_area = 0.0;
  double total_area = 0.0;
  for (std::size_t k = 0; k < c.nodes; ++k) {
    const NodePlan& node = plan.nodes[k];
    EXPECT_GT(node.instance.task_count(), 0U);
    EXPECT_EQ(node.instance.resources().size(), instance.resources().size());
    for (const Task& task : node.instance.tasks()) ids.insert(task.id);
    EXPECT_TRUE(find_violations(node.instance, node.result.schedule).empty());
    slowest = std::max(slowest, node.result.schedule.makespan);
    largest_area = std::max(largest_area, plan.partition.node_area[k]);
    total_area += plan.partition.node_area[k];
  }
  EXPECT_EQ(ids.size(), instance.task_count());
  for (const Task& task : instance.tasks()) EXPECT_EQ(ids.count(task.id), 1U) << task.id;
  EXPECT_DOUBLE_EQ(plan.predicted_makespan, slowest);
  EXPECT_TRUE(close_or_below(plan.partition.lower_bound, plan.predicted_makespan));
  // Graham: the fullest node holds at most the average plus (1 - 1/N) of the largest task area.
  const double n = static_cast<double>(c.nodes);
  EXPECT_TRUE(close_or_below(largest_area, total_area / n + (1.0 - 1.0 / n) * plan.partition.max_task_area));
  // The nodes' optimal allocations together are one allocation of the whole with A <= N·d·max_k L_k and
  // t_max <= max_k L_k, so L_min(N·d) <= max_k L_min,k(d).
  double slowest_bound = 0.0;
  for (const auto& node : plan.nodes) slowest_bound = std::max(slowest_bound, node.result.schedule.lower_bound);
  EXPECT_TRUE(close_or_below(plan.partition.lower_bound, slowest_bound));
}

INSTANTIATE_TEST_SUITE_P(AlgorithmsAndSizes, ClusterPlanTest,
                         ::testing::Values(ClusterCase{"t-list-lpt", 1, 12}, ClusterCase{"t-list-lpt", 3, 40},
                                           ClusterCase{"d-list-lpt", 4, 40}, ClusterCase{"d-pack-ff", 5, 23},
                                           ClusterCase{"t-pack-nf", 7, 7}, ClusterCase{"t-list-spt", 2, 9}),
                         [](const auto& test_info) {
                           std::string name = test_info.param.algorithm + "_" + std::to_string(test_info.param.nodes) + "x" +
                                              std::to_string(test_info.param.tasks);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The size: 64 nodes x 150 tasks, every task exactly once, valid plans, bound below the prediction.
TEST(ClusterPlan, SixtyFourNodesOfOneHundredFiftyTasks) {
  GeneratorConfig config;
  config.capacities = {8, 4};
  config.tasks = 64 * 150;
  const Instance instance = generate_instance(config, 3);
  const ClusterPlan plan = plan_cluster(find_algorithm("t-list-lpt"), instance, 64);
  ASSERT_EQ(plan.nodes.size(), 64U);
  std::set<std::string> ids;
  for (const auto& node : plan.nodes) {
    for (const Task& task : node.instance.tasks()) EXPECT_TRUE(ids.insert(task.id).second) << task.id;
    EXPECT_TRUE(find_violations(node.instance, node.result.schedule).empty());
  }
  EXPECT_EQ(ids.size(), instance.task_count());
  EXPECT_TRUE(close_or_below(plan.partition.lower_bound, plan.predicted_makespan));
}

TEST(ClusterPlan, OneNodeBoundIsTheSingleNodeBound) {
  const Instance instance = testing::random_dense_instance(5, {3, 2}, 10);
  const ClusterPartition partition = partition_tasks(instance, 1);
  EXPECT_DOUBLE_EQ(partition.lower_bound, lower_bound(instance));
  EXPECT_EQ(partition.nodes.front().size(), 10U);
}

TEST(ClusterPlan, RefusesMoreNodesThanTasksAndZero) {
  const Instance instance = testing::random_dense_instance(5, {2}, 3);
  EXPECT_THROW((void)partition_tasks(instance, 4), UsageError);
  EXPECT_THROW((void)partition_tasks(instance, 0), UsageError);
}

TEST(ClusterPlan, SelectTasksKeepsIdsAttributesAndResources) {
  Instance instance = testing::random_dense_instance(9, {2, 2}, 5);
  const Instance part = select_tasks(instance, {4, 1});
  ASSERT_EQ(part.task_count(), 2U);
  EXPECT_EQ(part.tasks()[0].id, "t4");
  EXPECT_EQ(part.tasks()[1].id, "t1");
  EXPECT_EQ(part.resources().size(), 2U);
  EXPECT_EQ(part.tasks()[0].profile, instance.tasks()[4].profile);  // shared, not copied
}

// ---- manifest -----------------------------------------------------------------------------------------------

ClusterManifest sample_manifest() {
  const Instance instance = testing::random_dense_instance(11, {3, 2}, 9);
  return make_cluster_manifest(plan_cluster(find_algorithm("t-list-lpt"), instance, 3, 1), "inst.json");
}

TEST(ClusterManifest, RoundTrip) {
  const ClusterManifest manifest = sample_manifest();
  const ClusterManifest back = parse_cluster_manifest(cluster_manifest_to_json(manifest), "m.json");
  EXPECT_EQ(back.version, kClusterManifestVersion);
  EXPECT_EQ(back.algorithm, "t-list-lpt");
  EXPECT_EQ(back.source_instance, "inst.json");
  EXPECT_EQ(back.resources.size(), 2U);
  EXPECT_DOUBLE_EQ(back.lower_bound, manifest.lower_bound);
  EXPECT_DOUBLE_EQ(back.predicted_makespan, manifest.predicted_makespan);
  ASSERT_EQ(back.nodes.size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(back.nodes[k].schedule, node_file_name(k, ".schedule.json"));
    EXPECT_EQ(back.nodes[k].tasks, manifest.nodes[k].tasks);
    EXPECT_DOUBLE_EQ(back.nodes[k].predicted_makespan, manifest.nodes[k].predicted_makespan);
  }
  EXPECT_EQ(cluster_manifest_to_json(back), cluster_manifest_to_json(manifest));
}

void expect_refused(const std::string& text, const std::string& needle) {
  try {
    (void)parse_cluster_manifest(text, "m.json");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
  }
}

TEST(ClusterManifest, RefusesWhatItCannotTrust) {
  nlohmann::json good = nlohmann::json::parse(cluster_manifest_to_json(sample_manifest()));
  auto with = [&](auto change) {
    nlohmann::json copy = good;
    change(copy);
    return copy.dump();
  };
  expect_refused(with([](auto& j) { j["version"] = 2; }), "version 2");
  expect_refused(with([](auto& j) { j.erase("nodes"); }), "nodes");
  expect_refused(with([](auto& j) { j["nodes"] = nlohmann::json::array(); }), "1..");
  expect_refused(with([](auto& j) { j["nodes"][0]["schedule"] = "../escape.json"; }), "schedule");
  expect_refused(with([](auto& j) { j["nodes"][1]["journal"] = j["nodes"][0]["journal"]; }), "named twice");
  expect_refused(with([](auto& j) { j["nodes"][1]["tasks"].push_back(j["nodes"][0]["tasks"][0]); }), "also on");
  expect_refused(with([](auto& j) { j["predicted_makespan"] = -1; }), "predicted_makespan");
  expect_refused(with([](auto& j) { j["nodes"][0]["tasks"] = nlohmann::json::array(); }), "empty");
  expect_refused("{", "not valid JSON");
}

// ---- the plan folder ----------------------------------------------------------------------------------------

class PlanFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("cosched-cluster-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::filesystem::path root_;
};

TEST_F(PlanFolderTest, WritesEveryNodeAndReadsBack) {
  const Instance instance = testing::random_dense_instance(13, {3, 2}, 8);
  const ClusterPlan plan = plan_cluster(find_algorithm("d-list-lpt"), instance, 2, 1);
  const auto folder = root_ / "plan";
  write_cluster_plan(folder, plan, "inst.json", Overwrite::refuse);
  EXPECT_TRUE(is_cluster_plan_folder(folder));
  const ClusterManifest manifest = load_cluster_manifest(folder);
  for (std::size_t k = 0; k < 2; ++k) {
    const Instance node = load_instance(folder / manifest.nodes[k].instance);
    const Schedule schedule = match_schedule(load_schedule_document(folder / manifest.nodes[k].schedule), node,
                                             manifest.nodes[k].schedule);
    EXPECT_TRUE(find_violations(node, schedule).empty());
    EXPECT_EQ(node.task_count(), manifest.nodes[k].tasks.size());
  }
  // A second write needs --force; with it the folder is replaced whole (an old file disappears).
  EXPECT_THROW(write_cluster_plan(folder, plan, "inst.json", Overwrite::refuse), UsageError);
  write_text_file(folder / "stale.txt", "x", Overwrite::refuse, "test");
  write_cluster_plan(folder, plan, "inst.json", Overwrite::replace);
  EXPECT_FALSE(std::filesystem::exists(folder / "stale.txt"));
  EXPECT_TRUE(is_cluster_plan_folder(folder));
  // Nothing left beside it.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(root_)) ++entries;
  EXPECT_EQ(entries, 1U);
}

TEST_F(PlanFolderTest, ChecksBeforeWork) {
  EXPECT_THROW(check_plan_folder(root_ / "missing" / "plan", Overwrite::refuse), UsageError);
  write_text_file(root_ / "file", "x", Overwrite::refuse, "test");
  EXPECT_THROW(check_plan_folder(root_ / "file", Overwrite::replace), UsageError);
  EXPECT_NO_THROW(check_plan_folder(root_ / "new", Overwrite::refuse));
  EXPECT_THROW((void)load_cluster_manifest(root_), InputError);
  EXPECT_EQ(find_cluster_plan_folder(root_), root_);
}

}  // namespace
}  // namespace cosched::sched
