#pragma once
// A batch over N identical nodes (docs/cluster.md): a partition step that balances the nodes' lower bounds, one
// plan per node with the chosen algorithm, the cluster lower bound and the predicted cluster makespan (the
// slowest node). Slurm allocates the nodes and starts one job step per node; what runs inside a node is the
// single-node schedule, unchanged.
//
// The partition rule. RA_d(N·d) (Algorithm 1 with s = N·d) allocates every task as if the cluster were one node
// with N times each capacity: its value L_min(N·d) = max(A(p*)/(N·d), t_max(p*)) is the cluster lower bound
// (any cluster schedule with allocations p has A(p) <= N·d·T and t_max(p) <= T). The tasks are then assigned by
// LPT on their areas a_j(p*_j): largest first, each to the node with the least area so far. Graham's bound for
// LPT gives every node an area of at most A(p*)/N + (1 - 1/N)·max_j a_j(p*_j), and a_j <= d·t_j(p*_j), so every
// node's own bound L_min(d) <= L(p*|node, d) <= LB + (1 - 1/N)·t_max(p*) <= (2 - 1/N)·LB — and with many tasks per
// node the additive term is a small fraction of a node's area.
#include <cstddef>
#include <string>
#include <vector>

#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::sched {

// Far beyond any allocation a plan is made for, low enough that a typo cannot create a million files.
inline constexpr std::size_t kMaxClusterNodes = 4096;

struct ClusterPartition {
  std::vector<std::vector<std::size_t>> nodes;  // per node, the instance's task indices in instance order
  std::vector<double> node_area;                // sum of a_j(p*_j) per node
  double lower_bound = 0.0;                     // L_min(N·d), the cluster lower bound
  double max_task_area = 0.0;                   // max_j a_j(p*_j): LPT's additive term
};

// Throws UsageError when `nodes` is 0, above kMaxClusterNodes or above the number of tasks (a node without a task
// has nothing to plan); RA's InputError for a task that cannot run at all.
[[nodiscard]] ClusterPartition partition_tasks(const Instance& instance, std::size_t nodes);

// The instance restricted to `tasks` (indices, kept in the order given): same resources, bandwidth model and
// attributes; the tasks' profiles, attributes and traffic are shared, not copied.
[[nodiscard]] Instance select_tasks(const Instance& instance, const std::vector<std::size_t>& tasks);

struct NodePlan {
  Instance instance;  // the node's tasks
  PlanResult result;  // its schedule (lower_bound = the node's L_min(d)) and the algorithm's time
};

struct ClusterPlan {
  std::string algorithm;
  ClusterPartition partition;
  std::vector<NodePlan> nodes;
  double predicted_makespan = 0.0;  // the slowest node's planned makespan
  double partition_seconds = 0.0;   // RA_d(N·d) + LPT
  double plan_seconds = 0.0;        // every node's L_min(d) and schedule
};

// partition_tasks, then every node planned with `algorithm` (nodes in parallel, up to `threads`; 0: the
// hardware's concurrency). The tasks' least-area front entries, which the split starts from, are found first on
// the same threads. Each schedule is validated (plan()).
[[nodiscard]] ClusterPlan plan_cluster(const Algorithm& algorithm, const Instance& instance, std::size_t nodes,
                                       unsigned threads = 0);

// Text for people: one line per node (tasks, area, L_min(d), planned makespan), the cluster bound, the predicted
// makespan and their ratio, LPT's guarantee, and the time the split and the plans took.
[[nodiscard]] std::string format_cluster_plan(const ClusterPlan& plan);

}  // namespace cosched::sched
