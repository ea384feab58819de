// The bandwidth model in the plan: plan_from_schedule and attach_bandwidth give every task its demand on the
// memory pools at its allocation (instance.demand), a resumed plan keeps them, and the summary's error of each
// prediction.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/schedule_document.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/prediction.hpp"
#include "support/files.hpp"
#include "test_support.hpp"

namespace cosched::sim {
namespace {

sched::Instance instance_with_traffic(unsigned seed) {
  std::mt19937 rng(seed);
  return testing::with_random_traffic(testing::random_instance(rng, 4, 6, 8), rng);
}

void expect_flows_of(const LaunchPlan& plan, const sched::Instance& instance) {
  for (const PlannedTask& task : plan.tasks) {
    std::size_t j = 0;
    while (instance.tasks()[j].id != task.id) ++j;
    std::vector<int> alloc = task.demand;
    alloc.resize(instance.dimensions(), 0);
    const sched::FlowDemand expected = instance.demand(j, alloc);
    EXPECT_EQ(task.flow.bytes_per_s, expected.bytes_per_s) << task.id;
    EXPECT_EQ(task.flow.cores, expected.cores) << task.id;
  }
}

TEST(PlanBandwidth, APlanFromAScheduleCarriesTheModelAndEachTasksDemand) {
  const sched::Instance instance = instance_with_traffic(3);
  const LaunchPlan plan = testing::plan_with(instance, "t-list-lpt");
  ASSERT_EQ(plan.bandwidth.pools.size(), 2U);
  EXPECT_EQ(plan.bandwidth.pools[0].name, "dram");
  expect_flows_of(plan, instance);
  std::size_t with_traffic = 0;
  for (const PlannedTask& task : plan.tasks) with_traffic += task.flow.bytes_per_s[0] + task.flow.bytes_per_s[1] > 0;
  EXPECT_GT(with_traffic, 0U);
}

// The Schedule JSON carries the model (docs/formats.md): a plan read from the file alone, as `cosched launch s.json
// --workload W` reads it, has the instance's pools and exactly the demands plan_from_schedule gives, so both predict
// the same contention-aware makespan.
TEST(PlanBandwidth, AScheduleFileCarriesTheModelAndPredictsWhatTheInstanceDoes) {
  const sched::Instance instance = instance_with_traffic(8);
  const auto dir = test_support::scratch_dir();
  for (const char* algorithm : {"t-list-lpt", "d-pack-ff"}) {
    const auto result = sched::plan(sched::find_algorithm(algorithm), instance, sched::lower_bound(instance));
    const LaunchPlan from_instance = plan_from_schedule(instance, result.schedule);
    const auto file = test_support::write_file(
        dir / (std::string(algorithm) + ".json"),
        sched::schedule_document_to_json(sched::make_schedule_document(instance, result.schedule)));
    std::vector<std::string> names;
    std::vector<int> capacities;
    for (const auto& resource : instance.resources()) {
      names.push_back(resource.name);
      capacities.push_back(resource.capacity);
    }
    const LaunchPlan from_file = load_schedule_plan(file, names, capacities);
    ASSERT_EQ(from_file.bandwidth.pools.size(), 2U) << algorithm;
    EXPECT_EQ(from_file.bandwidth.pools[1].bytes_per_s, instance.bandwidth().pools[1].bytes_per_s);
    ASSERT_EQ(from_file.tasks.size(), from_instance.tasks.size());
    for (std::size_t j = 0; j < from_file.tasks.size(); ++j) {
      EXPECT_EQ(from_file.tasks[j].flow.bytes_per_s, from_instance.tasks[j].flow.bytes_per_s) << from_file.tasks[j].id;
      EXPECT_EQ(from_file.tasks[j].flow.cores, from_instance.tasks[j].flow.cores) << from_file.tasks[j].id;
      EXPECT_EQ(from_file.tasks[j].flow.streaming_share, from_instance.tasks[j].flow.streaming_share);
    }
    EXPECT_EQ(predict_contention(from_file, "auto").observed_makespan,
              predict_contention(from_instance, "auto").observed_makespan)
        << algorithm;
  }
}

// A schedule written before schedules carried the model (or of an instance without one) still reads: no model.
TEST(PlanBandwidth, AScheduleFileWithoutAModelReadsWithNone) {
  const auto file = test_support::write_file(
      test_support::scratch_dir() / "old.json",
      R"({"algorithm": "x", "tasks": [{"id": "a", "alloc": [1, 0], "start": 0, "duration": 1}]})");
  const LaunchPlan plan = load_schedule_plan(file, {"cores", "fast_chunks"}, {2, 4});
  EXPECT_TRUE(plan.bandwidth.empty());
  ASSERT_EQ(plan.tasks.size(), 1U);
  EXPECT_TRUE(plan.tasks[0].flow.bytes_per_s.empty());
}

TEST(PlanBandwidth, WithoutAModelTheDemandsAreEmpty) {
  std::mt19937 rng(3);
  const LaunchPlan plan = testing::plan_with(testing::random_instance(rng, 4, 6, 8), "t-list-lpt");
  EXPECT_TRUE(plan.bandwidth.empty());
  for (const PlannedTask& task : plan.tasks) EXPECT_TRUE(task.flow.bytes_per_s.empty()) << task.id;
}

TEST(PlanBandwidth, AttachMatchesTasksByIdWhateverTheirOrder) {
  const sched::Instance instance = instance_with_traffic(4);
  LaunchPlan plan = testing::plan_with(instance, "t-pack-ff");
  std::reverse(plan.tasks.begin(), plan.tasks.end());
  for (PlannedTask& task : plan.tasks) task.flow = {};
  plan.bandwidth = {};
  attach_bandwidth(plan, instance);
  EXPECT_EQ(plan.bandwidth.pools.size(), 2U);
  expect_flows_of(plan, instance);
}

TEST(PlanBandwidth, ACoresOnlyPlanOnACoresAndChunksInstanceHasNoFastChunks) {
  const sched::Instance instance = instance_with_traffic(5);
  LaunchPlan plan;
  plan.resource_names = {"cores"};
  plan.capacities = {4};
  plan.tasks = {{instance.tasks()[0].id, {2}, 0.0, 1.0, -1}, {instance.tasks()[1].id, {4}, 1.0, 1.0, -1}};
  attach_bandwidth(plan, instance);
  const std::vector<int> padded{2, 0};
  EXPECT_EQ(plan.tasks[0].flow.bytes_per_s, instance.demand(0, padded).bytes_per_s);
  EXPECT_EQ(plan.tasks[0].flow.cores, 2.0);
  expect_flows_of(plan, instance);
}

void expect_attach_error(LaunchPlan plan, const sched::Instance& instance, const std::string& fragment) {
  try {
    attach_bandwidth(plan, instance, "inst.json");
    ADD_FAILURE() << "accepted; expected " << fragment;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("inst.json"), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(PlanBandwidth, AttachRefusesTasksResourcesAndAmountsTheInstanceDoesNotHave) {
  const sched::Instance instance = instance_with_traffic(6);
  LaunchPlan plan;
  plan.resource_names = {"cores", "fast_chunks"};
  plan.capacities = {4, 6};
  plan.tasks = {{instance.tasks()[0].id, {1, 1}, 0.0, 1.0, -1}, {"stranger", {1, 0}, 0.0, 1.0, -1}};
  expect_attach_error(plan, instance, "\"stranger\" is not in the instance");
  EXPECT_TRUE(plan.bandwidth.empty()) << "nothing attached on error";

  plan.tasks.pop_back();
  LaunchPlan renamed = plan;
  renamed.resource_names = {"cores", "hbm_chunks"};
  expect_attach_error(renamed, instance, "\"hbm_chunks\"");
  LaunchPlan longer = plan;
  longer.resource_names.emplace_back("gpus");
  longer.capacities.push_back(1);
  expect_attach_error(longer, instance, "3 resources");
  LaunchPlan beyond = plan;
  beyond.tasks[0].demand = {5, 0};
  expect_attach_error(beyond, instance, "alloc[0] = 5");
}

TEST(PlanBandwidth, AnInstanceWithoutAModelAttachesNone) {
  std::mt19937 rng(7);
  const sched::Instance instance = testing::random_instance(rng, 4, 6, 3);
  LaunchPlan plan;
  plan.resource_names = {"cores"};
  plan.capacities = {4};
  plan.tasks = {{instance.tasks()[0].id, {2}, 0.0, 1.0, -1}, {"stranger", {1}, 0.0, 1.0, -1}};
  attach_bandwidth(plan, instance);  // a task it does not have does not matter: there is nothing to attach
  EXPECT_TRUE(plan.bandwidth.empty());
  EXPECT_TRUE(plan.tasks[0].flow.bytes_per_s.empty());
}

TEST(PlanBandwidth, ARemainingPlanKeepsTheModelAndTheDemands) {
  const sched::Instance instance = instance_with_traffic(8);
  const LaunchPlan plan = testing::plan_with(instance, "t-list-lpt");
  const LaunchPlan rest = remaining_plan(plan, {plan.tasks[0].id});
  EXPECT_EQ(rest.bandwidth.pools.size(), plan.bandwidth.pools.size());
  ASSERT_EQ(rest.tasks.size(), plan.tasks.size() - 1);
  for (std::size_t j = 0; j < rest.tasks.size(); ++j) {
    EXPECT_EQ(rest.tasks[j].flow.bytes_per_s, plan.tasks[j + 1].flow.bytes_per_s);
  }
}

TEST(PredictionError, IsObservedOverPredictedMinusOneWhenThereIsAPrediction) {
  EXPECT_DOUBLE_EQ(prediction_error(3.0, 2.0).value(), 0.5);
  EXPECT_DOUBLE_EQ(prediction_error(1.5, 2.0).value(), -0.25);
  EXPECT_FALSE(prediction_error(3.0, std::nullopt).has_value());
  EXPECT_FALSE(prediction_error(3.0, 0.0).has_value());
}

}  // namespace
}  // namespace cosched::sim
