#include "cosched/sched/cluster.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <queue>
#include <thread>

#include "cosched/common/error.hpp"
#include "cosched/sched/allocation.hpp"

namespace cosched::sched {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void check_node_count(const Instance& instance, std::size_t nodes) {
  if (nodes == 0 || nodes > kMaxClusterNodes) {
    throw UsageError(fmt::format("--nodes must be in 1..{}, got {}", kMaxClusterNodes, nodes));
  }
  if (nodes > instance.task_count()) {
    throw UsageError(fmt::format("--nodes {} exceeds the instance's {} tasks: a node would have nothing to run",
                                 nodes, instance.task_count()));
  }
}

// work(k) for every k < count on up to `threads` threads (0: the hardware's concurrency), each taking the next k
// until none is left. The first exception stops the others from taking more and is rethrown here.
void for_each_in_parallel(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto worker = [&] {
    for (std::size_t k = next++; k < count; k = next++) {
      try {
        work(k);
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = count;
      }
    }
  };
  const unsigned hardware = std::max(1U, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(count, threads == 0 ? hardware : threads);
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

// Node with the least area on top; among equal areas the one with fewer tasks (tasks of area 0 — a task that runs
// on no resource — still spread, so the first N tasks land on N different nodes and no node is empty), then the
// lowest index, so partitions are deterministic.
struct NodeLoad {
  double area;
  std::size_t tasks;
  std::size_t node;
  bool operator>(const NodeLoad& other) const noexcept {
    if (area != other.area) return area > other.area;
    return tasks != other.tasks ? tasks > other.tasks : node > other.node;
  }
};

}  // namespace

ClusterPartition partition_tasks(const Instance& instance, std::size_t nodes) {
  check_node_count(instance, nodes);
  const double s = static_cast<double>(nodes) * static_cast<double>(instance.dimensions());
  const ResourceAllocation allocation = allocate_resources(instance, s);
  ClusterPartition partition;
  partition.lower_bound = allocation.bound;
  const std::size_t n = instance.task_count();
  std::vector<double> task_area(n);
  for (std::size_t j = 0; j < n; ++j) {
    task_area[j] = area(instance.space(), instance.space().decode(allocation.allocation[j]), allocation.time[j]);
    partition.max_task_area = std::max(partition.max_task_area, task_area[j]);
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return task_area[a] > task_area[b]; });
  partition.nodes.assign(nodes, {});
  partition.node_area.assign(nodes, 0.0);
  std::priority_queue<NodeLoad, std::vector<NodeLoad>, std::greater<>> loads;
  for (std::size_t k = 0; k < nodes; ++k) loads.push({0.0, 0, k});
  for (const std::size_t j : order) {
    NodeLoad least = loads.top();
    loads.pop();
    partition.nodes[least.node].push_back(j);
    least.area += task_area[j];
    ++least.tasks;
    loads.push(least);
  }
  for (std::size_t k = 0; k < nodes; ++k) {
    std::sort(partition.nodes[k].begin(), partition.nodes[k].end());
    for (const std::size_t j : partition.nodes[k]) partition.node_area[k] += task_area[j];
  }
  return partition;
}

Instance select_tasks(const Instance& instance, const std::vector<std::size_t>& tasks) {
  std::vector<Task> kept;
  kept.reserve(tasks.size());
  for (const std::size_t j : tasks) kept.push_back(instance.tasks().at(j));
  return Instance(instance.resources(), std::move(kept), instance.attributes(), instance.bandwidth());
}

ClusterPlan plan_cluster(const Algorithm& algorithm, const Instance& instance, std::size_t nodes, unsigned threads) {
  ClusterPlan cluster;
  cluster.algorithm = std::string(algorithm.name());
  check_node_count(instance, nodes);
  const auto partition_start = std::chrono::steady_clock::now();
  // RA_d(N·d) starts every task at its front's least area: found here in parallel (each task's front is its own),
  // then read by the split and, since the nodes' tasks keep their profiles, by every node's L_min(d) and plan.
  // A task that cannot run at all is left for the split to report.
  for_each_in_parallel(instance.task_count(), threads, [&](std::size_t j) {
    (void)instance.tasks()[j].profile->front(instance.space())->least_area();
  });
  cluster.partition = partition_tasks(instance, nodes);
  cluster.partition_seconds = seconds_since(partition_start);

  const auto plan_start = std::chrono::steady_clock::now();
  std::vector<std::optional<NodePlan>> planned(nodes);
  // Nodes are independent. The algorithms keep no state between calls, and the instances are read-only.
  for_each_in_parallel(nodes, threads, [&](std::size_t k) {
    Instance node_instance = select_tasks(instance, cluster.partition.nodes[k]);
    const double bound = lower_bound(node_instance);
    PlanResult result = plan(algorithm, node_instance, bound);
    planned[k].emplace(NodePlan{std::move(node_instance), std::move(result)});
  });
  cluster.plan_seconds = seconds_since(plan_start);

  for (auto& node : planned) {
    cluster.predicted_makespan = std::max(cluster.predicted_makespan, node->result.schedule.makespan);
    cluster.nodes.push_back(std::move(*node));
  }
  return cluster;
}

std::string format_cluster_plan(const ClusterPlan& plan) {
  std::string text = fmt::format("{} on {} nodes\n{:>6} {:>7} {:>12} {:>12} {:>12}\n", plan.algorithm,
                                 plan.nodes.size(), "node", "tasks", "area", "L_min(d)", "makespan");
  for (std::size_t k = 0; k < plan.nodes.size(); ++k) {
    const Schedule& schedule = plan.nodes[k].result.schedule;
    text += fmt::format("{:>6} {:>7} {:>12.6g} {:>12.6g} {:>12.6g}\n", k, plan.nodes[k].instance.task_count(),
                        plan.partition.node_area[k], schedule.lower_bound, schedule.makespan);
  }
  const double bound = plan.partition.lower_bound;
  const double dimensions = static_cast<double>(plan.nodes.front().instance.dimensions());
  const double guarantee = bound + (1.0 - 1.0 / static_cast<double>(plan.nodes.size())) *
                                       plan.partition.max_task_area / dimensions;
  text += fmt::format("cluster lower bound L_min(N*d) {:.6g}; predicted makespan (slowest node) {:.6g}; ratio {}\n",
                      bound, plan.predicted_makespan,
                      bound > 0 ? fmt::format("{:.4f}", plan.predicted_makespan / bound) : std::string("n/a"));
  text += fmt::format("partition: LPT on RA_d(N*d) areas, every node's L(p*, d) <= {:.6g}; split {:.3f} s, plans "
                      "{:.3f} s\n",
                      guarantee, plan.partition_seconds, plan.plan_seconds);
  return text;
}

}  // namespace cosched::sched
