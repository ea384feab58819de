// Every registered algorithm's plan, and the cluster split, on fixed instances with d = 1..4 — compared bit for
// bit with tests/data/sched/plan_reference.json, which the code BEFORE issue 25 (commit 2885112: every task's
// allocations enumerated in full) wrote. Issue 25 reads the tasks' Pareto fronts lazily instead and speeds up the
// seed-001 knapsack; no plan may change: allocation, start, duration and pack of every task, makespan, L_min(d),
// the allocation phase's bound, and the split's nodes, areas and bound.
//
// The instances cover what the new code does differently: synthetic tasks (the lazy front search on spaces of up
// to 328,185 vectors, few tasks so that RA_d walks deep into the fronts), dense tables with plateaus, ties and
// infeasible allocations (small spaces, and larger ones where the search gives up and scans), and bandwidth
// traffic (bw-list-lpt's planning instance).
//
// To write the file again — only when a plan is meant to change, and saying why in the commit:
//   COSCHED_PLAN_REFERENCE_OUT=tests/data/sched/plan_reference.json build/bin/sched_tests --gtest_filter='PlanReference.*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sched/io.hpp"
#include "sched/test_support.hpp"
#include "support/test_data.hpp"

namespace cosched::sched {
namespace {

struct NamedInstance {
  std::string name;
  Instance instance;
};

// Synthetic tasks of the generator with weights in (0.5, 4] (seed 001's algorithms use them).
Instance weighted_synthetic(std::vector<int> capacities, std::size_t tasks, std::uint64_t seed) {
  GeneratorConfig config;
  config.capacities = std::move(capacities);
  config.tasks = tasks;
  const Instance plain = generate_instance(config, instance_seed(25, seed));
  Random random(seed);
  std::vector<Task> weighted = plain.tasks();
  for (Task& task : weighted) task.weight = random.uniform_above(0.5, 4.0);
  return Instance(plain.resources(), std::move(weighted), plain.attributes());
}

std::vector<NamedInstance> reference_instances() {
  std::vector<NamedInstance> instances;
  const auto add = [&](std::string name, Instance instance) {
    instances.push_back({std::move(name), std::move(instance)});
  };
  add("synthetic-64", weighted_synthetic({64}, 12, 1));
  add("synthetic-64x20", weighted_synthetic({64, 20}, 12, 2));
  add("synthetic-16x16x16", weighted_synthetic({16, 16, 16}, 10, 3));
  add("synthetic-64x32x16x8", weighted_synthetic({64, 32, 16, 8}, 12, 4));
  add("synthetic-64x32x16x8-few", weighted_synthetic({64, 32, 16, 8}, 3, 5));
  add("dense-6", testing::random_dense_instance(61, {6}, 10));
  add("dense-4x3", testing::random_dense_instance(62, {4, 3}, 10));
  add("dense-3x3x2", testing::random_dense_instance(63, {3, 3, 2}, 9));
  add("dense-2x2x2x2", testing::random_dense_instance(64, {2, 2, 2, 2}, 8));
  add("dense-40x30", testing::random_dense_instance(65, {40, 30}, 6, 0.1));
  add("dense-12x10x8", testing::random_dense_instance(66, {12, 10, 8}, 6, 0.1));
  add("dense-6x5x4x3", testing::random_dense_instance(67, {6, 5, 4, 3}, 6, 0.1));
  add("traffic-5x3", testing::with_random_traffic(testing::random_dense_instance(68, {5, 3}, 8), 68, 1));
  add("traffic-4x2x2", testing::with_random_traffic(testing::random_dense_instance(69, {4, 2, 2}, 6), 69, 2));
  return instances;
}

std::filesystem::path reference_file() { return test::test_data_file("sched/plan_reference.json"); }

nlohmann::json plan_entry(const NamedInstance& named, const Schedule& schedule) {
  return {{"instance", named.name},
          {"algorithm", schedule.algorithm},
          {"allocation_bound", schedule.allocation_bound},
          {"schedule", parse_json_text(schedule_to_json(named.instance, schedule), named.name)}};
}

nlohmann::json partition_entry(const NamedInstance& named, std::size_t nodes, const ClusterPartition& partition) {
  return {{"instance", named.name},
          {"nodes", nodes},
          {"lower_bound", partition.lower_bound},
          {"max_task_area", partition.max_task_area},
          {"node_area", partition.node_area},
          {"tasks", partition.nodes}};
}

// What the code computes now, in the file's form.
nlohmann::json current_plans() {
  nlohmann::json plans = nlohmann::json::array();
  nlohmann::json partitions = nlohmann::json::array();
  for (const NamedInstance& named : reference_instances()) {
    const double bound = lower_bound(named.instance);
    for (const auto& algorithm : algorithms()) {
      if (!algorithm->refusal(named.instance).empty()) continue;
      plans.push_back(plan_entry(named, plan(*algorithm, named.instance, bound).schedule));
    }
    for (const std::size_t nodes : {std::size_t{2}, std::size_t{3}}) {
      partitions.push_back(partition_entry(named, nodes, partition_tasks(named.instance, nodes)));
    }
  }
  return {{"plans", std::move(plans)}, {"partitions", std::move(partitions)}};
}

// The file's text: one plan or partition per line, so a change shows as the lines of the plans it changed.
std::string reference_text(const nlohmann::json& document) {
  std::string text = "{";
  for (const char* key : {"plans", "partitions"}) {
    text += std::string(text.size() > 1 ? ",\n" : "\n") + "\"" + key + "\": [";
    const nlohmann::json& entries = document.at(key);
    for (std::size_t k = 0; k < entries.size(); ++k) text += (k == 0 ? "\n" : ",\n") + entries[k].dump();
    text += "\n]";
  }
  return text + "\n}\n";
}

const Instance& instance_named(const std::vector<NamedInstance>& instances, const std::string& name) {
  for (const NamedInstance& named : instances) {
    if (named.name == name) return named.instance;
  }
  throw std::logic_error("plan_reference.json names an instance the test does not build: " + name);
}

// Exact equality of doubles (GoogleTest prints both with 17 digits), with the context a failure needs.
void expect_same(double expected, double actual, const std::string& where) { EXPECT_EQ(expected, actual) << where; }

TEST(PlanReference, EveryAlgorithmPlansExactlyAsBeforeTheParetoFronts) {
  const nlohmann::json now = current_plans();
  if (const char* out = std::getenv("COSCHED_PLAN_REFERENCE_OUT")) {
    write_text_file(out, reference_text(now), Overwrite::replace, "the plan reference");
    GTEST_SKIP() << "wrote " << out << " (COSCHED_PLAN_REFERENCE_OUT): nothing compared";
  }
  const nlohmann::json before = parse_json_text(read_text_file(reference_file(), "the plan reference"),
                                                reference_file().string());
  const std::vector<NamedInstance> instances = reference_instances();
  const nlohmann::json& old_plans = before.at("plans");
  const nlohmann::json& new_plans = now.at("plans");
  ASSERT_EQ(old_plans.size(), new_plans.size()) << "the number of (instance, algorithm) plans changed";
  for (std::size_t k = 0; k < old_plans.size(); ++k) {
    const nlohmann::json& old_entry = old_plans[k];
    const nlohmann::json& new_entry = new_plans[k];
    const std::string where = old_entry.at("instance").get<std::string>() + " / " +
                              old_entry.at("algorithm").get<std::string>();
    ASSERT_EQ(old_entry.at("instance"), new_entry.at("instance")) << "plan " << k;
    ASSERT_EQ(old_entry.at("algorithm"), new_entry.at("algorithm")) << "plan " << k;
    const Instance& instance = instance_named(instances, old_entry.at("instance").get<std::string>());
    const Schedule expected = parse_schedule(old_entry.at("schedule").dump(), instance, where);
    const Schedule actual = parse_schedule(new_entry.at("schedule").dump(), instance, where);
    expect_same(old_entry.at("allocation_bound").get<double>(), new_entry.at("allocation_bound").get<double>(),
                where + ": allocation bound");
    expect_same(expected.makespan, actual.makespan, where + ": makespan");
    expect_same(expected.lower_bound, actual.lower_bound, where + ": L_min(d)");
    for (std::size_t j = 0; j < instance.task_count(); ++j) {
      const std::string task = where + ": task " + instance.tasks()[j].id;
      EXPECT_EQ(expected.tasks[j].alloc, actual.tasks[j].alloc) << task << ": allocation";
      expect_same(expected.tasks[j].start, actual.tasks[j].start, task + ": start");
      expect_same(expected.tasks[j].duration, actual.tasks[j].duration, task + ": duration");
      EXPECT_EQ(expected.tasks[j].pack, actual.tasks[j].pack) << task << ": pack";
    }
  }
}

TEST(PlanReference, TheClusterSplitIsExactlyAsBeforeTheParetoFronts) {
  if (std::getenv("COSCHED_PLAN_REFERENCE_OUT") != nullptr) GTEST_SKIP() << "writing the reference";
  const nlohmann::json before = parse_json_text(read_text_file(reference_file(), "the plan reference"),
                                                reference_file().string());
  const nlohmann::json now = current_plans();
  const nlohmann::json& old_partitions = before.at("partitions");
  const nlohmann::json& new_partitions = now.at("partitions");
  ASSERT_EQ(old_partitions.size(), new_partitions.size());
  for (std::size_t k = 0; k < old_partitions.size(); ++k) {
    const nlohmann::json& old_entry = old_partitions[k];
    const nlohmann::json& new_entry = new_partitions[k];
    const std::string where = old_entry.at("instance").get<std::string>() + " on " +
                              std::to_string(old_entry.at("nodes").get<std::size_t>()) + " nodes";
    ASSERT_EQ(old_entry.at("instance"), new_entry.at("instance")) << "partition " << k;
    expect_same(old_entry.at("lower_bound").get<double>(), new_entry.at("lower_bound").get<double>(),
                where + ": L_min(N*d)");
    expect_same(old_entry.at("max_task_area").get<double>(), new_entry.at("max_task_area").get<double>(),
                where + ": largest task area");
    EXPECT_EQ(old_entry.at("node_area").get<std::vector<double>>(), new_entry.at("node_area").get<std::vector<double>>())
        << where << ": node areas";
    EXPECT_EQ(old_entry.at("tasks"), new_entry.at("tasks")) << where << ": tasks per node";
  }
}

}  // namespace
}  // namespace cosched::sched
