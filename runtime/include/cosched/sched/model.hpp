#pragma once
// The d-RESOURCE-SCHEDULING model of Sun et al., "Scheduling Parallel Tasks under Multiple Resources: List
// Scheduling vs. Pack Scheduling" (RR-9140), Sec. 3 and 4.1: d resource types with integer capacities P(i), and
// moldable tasks whose execution time is a function t_j(p) of the integer allocation vector p.
//
// A task's times are reached through TimeProfile so that dense tables (read from JSON) and functions evaluated on
// demand (synthetic speedup profiles, the transformed instance of TF) are interchangeable: the allocation phase
// streams one task's times through a reusable buffer, so nothing of size n·P is ever materialised.
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cosched/sched/bandwidth.hpp"

namespace cosched::sched {

struct Resource {
  std::string name;
  int capacity = 0;  // P(i) >= 1
};

// The largest allocation space P = prod(P(i)+1) the library works with. The algorithms stream one task's times
// through a buffer of P doubles (128 MiB here) and spend O(n * P) per allocation phase, so a capacity of 10^9
// is refused up front instead of allocating gigabytes or running for days. Real nodes are far below: 64 cores x
// 256 fast chunks is 16,705 vectors, Fig. 4's (64, 32, 16, 8) is 328,185.
inline constexpr std::size_t kMaxAllocationVectors = std::size_t{1} << 24;
inline constexpr int kMaxCapacity = static_cast<int>(kMaxAllocationVectors) - 1;  // P(i) of a single resource

// All integer allocation vectors 0 <= p_i <= P(i), linearised row-major: p_1 varies slowest, p_d fastest.
class AllocationSpace {
 public:
  // Throws InputError for a capacity < 1 and ResourceError when P = prod(P(i)+1) exceeds kMaxAllocationVectors.
  explicit AllocationSpace(std::vector<int> capacities);

  [[nodiscard]] std::size_t dimensions() const noexcept { return capacities_.size(); }
  [[nodiscard]] const std::vector<int>& capacities() const noexcept { return capacities_; }
  [[nodiscard]] int capacity(std::size_t resource) const { return capacities_[resource]; }
  // P = prod(P(i)+1), the number of allocation vectors (Sec. 4.2).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t stride(std::size_t resource) const { return strides_[resource]; }

  [[nodiscard]] std::size_t index_of(std::span<const int> alloc) const;
  void decode(std::size_t index, std::span<int> alloc) const;
  [[nodiscard]] std::vector<int> decode(std::size_t index) const;
  [[nodiscard]] bool contains(std::span<const int> alloc) const;

  // p_i / P(i) and the left fold sum_i p_i/P(i) in resource order. Every area in the library is computed as
  // share_sum(p) * t(p) in this exact order, so areas agree bit for bit however an allocation was reached.
  [[nodiscard]] double share(std::size_t resource, int amount) const {
    return static_cast<double>(amount) / static_cast<double>(capacities_[resource]);
  }
  [[nodiscard]] double share_sum(std::span<const int> alloc) const;

 private:
  std::vector<int> capacities_;
  std::vector<std::size_t> strides_;
  std::size_t size_ = 1;
};

// a_j(p) = sum_i p_i/P(i) * t_j(p) (Definition 2), +inf when t is +inf (footnote 3 of the paper).
[[nodiscard]] double area(const AllocationSpace& space, std::span<const int> alloc, double time);

class ParetoFront;

// Execution times of one task. Contract: non-increasing in every resource, i.e. the monotone closure of
// footnote 1 is already applied; +inf marks allocations the task cannot run with. Never NaN, never negative.
class TimeProfile {
 public:
  TimeProfile() = default;
  // A copy is another task's profile: it starts without a front.
  TimeProfile(const TimeProfile& /*other*/) {}
  TimeProfile& operator=(const TimeProfile& /*other*/) { return *this; }
  virtual ~TimeProfile();
  // Times at every allocation vector of `space` in row-major order; out.size() == space.size().
  virtual void fill_times(const AllocationSpace& space, std::span<double> out) const = 0;
  // The same value fill_times writes at `alloc`, bit for bit.
  [[nodiscard]] virtual double time_at(const AllocationSpace& space, std::span<const int> alloc) const = 0;

  // The task's Pareto front on `space` (pareto_front.hpp). The front of the first space asked for is kept with the
  // profile, so the lower bound, every algorithm and the cluster split share what any of them computed; another
  // space gets a front of its own, not kept. Thread-safe. The front refers to this profile: it must not outlive it.
  [[nodiscard]] std::shared_ptr<const ParetoFront> front(const AllocationSpace& space) const;

 private:
  friend std::shared_ptr<const TimeProfile> transformed_profile(const std::shared_ptr<const TimeProfile>& original,
                                                                const AllocationSpace& space);

  mutable std::atomic<std::shared_ptr<const ParetoFront>> front_;
  // TF's single-resource view of this profile (transform.hpp), kept like the front so that the T-variants planning
  // one instance share the view's front instead of each finding it again.
  mutable std::atomic<std::shared_ptr<const TimeProfile>> transformed_;
};

// Replaces t(p) by min over q <= p of t(q) (footnote 1) in one row-major sweep: when p is reached every p - e_i
// is already closed, so t(p) = min(t(p), min_i t(p - e_i)) — O(d * P).
void apply_monotone_closure(const AllocationSpace& space, std::span<double> times);

// A dense table over all allocation vectors (the Instance JSON format); closed at construction.
class DenseTimeTable final : public TimeProfile {
 public:
  DenseTimeTable(const AllocationSpace& space, std::vector<double> raw_times);
  void fill_times(const AllocationSpace& space, std::span<double> out) const override;
  [[nodiscard]] double time_at(const AllocationSpace& space, std::span<const int> alloc) const override;
  [[nodiscard]] const std::vector<double>& times() const noexcept { return times_; }

 private:
  std::vector<double> times_;
};

// Bytes a task moves from each memory pool over its whole run: traffic[q][k] for pool q of the instance's
// bandwidth model at the allocation vector of index k (row-major, like the times).
using TrafficTable = std::vector<std::vector<double>>;

struct Task {
  std::string id;  // a safe identifier (check_identifier): ids name log files
  std::shared_ptr<const TimeProfile> profile;
  // Everything the Instance JSON says about the task besides "id" and "times" (what it runs: "kernel",
  // "footprint_bytes", "passes", "command", ...), kept verbatim as a JSON object and written back by
  // instance_to_json. Scheduling never looks at it; the launcher does. Null means none, as an empty object does: a
  // generated workload of millions of tasks gives null, since every empty object is a heap allocation of its own.
  nlohmann::json attributes = nlohmann::json::object();
  // Its memory traffic (Instance JSON "traffic_bytes"); null when not known: the task then never contends.
  std::shared_ptr<const TrafficTable> traffic = nullptr;
  // Its weight in the weighted completion time sum_j w_j C_j (Instance JSON "weight", finite, > 0, default 1;
  // seed 001). Makespan algorithms ignore it.
  double weight = 1.0;
};

// The largest weight the Instance JSON accepts: sum_j w_j C_j stays finite and meaningful.
inline constexpr double kMaxWeight = 1e9;

class Instance {
 public:
  // Throws InputError for an unsafe or duplicate task id, an empty or duplicate resource name, attributes that
  // are not JSON objects, a bandwidth model check_bandwidth_model refuses, or a traffic table that does not have
  // one row per pool and one finite, non-negative value per allocation vector; AllocationSpace's errors for the
  // capacities. `attributes` are the instance's fields besides "resources", "tasks" and "bandwidth" (for
  // instances made from profiles: "platform", "workload"). The first resource counts the cores that stream.
  Instance(std::vector<Resource> resources, std::vector<Task> tasks,
           nlohmann::json attributes = nlohmann::json::object(), BandwidthModel bandwidth = {});

  [[nodiscard]] const std::vector<Resource>& resources() const noexcept { return resources_; }
  [[nodiscard]] const AllocationSpace& space() const noexcept { return space_; }
  [[nodiscard]] const std::vector<Task>& tasks() const noexcept { return tasks_; }
  [[nodiscard]] std::size_t task_count() const noexcept { return tasks_.size(); }
  [[nodiscard]] std::size_t dimensions() const noexcept { return space_.dimensions(); }
  [[nodiscard]] double time(std::size_t task, std::span<const int> alloc) const {
    return tasks_[task].profile->time_at(space_, alloc);
  }
  [[nodiscard]] const nlohmann::json& attributes() const noexcept { return attributes_; }
  // The node's memory pools (empty: the instance has no bandwidth model, and predictions ignore contention).
  [[nodiscard]] const BandwidthModel& bandwidth() const noexcept { return bandwidth_; }
  // Task j at `alloc` as a flow of the fluid model: flow_of_task of its average bytes/s per pool alone (traffic /
  // time; 0 without traffic or at an infinite time) on its cores (the first resource).
  [[nodiscard]] FlowDemand demand(std::size_t task, std::span<const int> alloc) const;
  // The bytes task j moves from each pool of the bandwidth model at `alloc` (its "traffic_bytes" there); empty
  // when its traffic is not known.
  [[nodiscard]] std::vector<double> traffic(std::size_t task, std::span<const int> alloc) const;

 private:
  void check_traffic(const TrafficTable& traffic, const std::string& where) const;

  std::vector<Resource> resources_;
  AllocationSpace space_;
  std::vector<Task> tasks_;
  nlohmann::json attributes_;
  BandwidthModel bandwidth_;
};

[[nodiscard]] std::vector<int> capacities_of(const std::vector<Resource>& resources);

// The instance restricted to its first `count` resources, the others held at 0: t'(p) = t(p, 0, ..., 0). Ids,
// attributes, the bandwidth model and the traffic (restricted the same way) are kept. (Fig. 3(b)'s cores-only configurations: the chunks = 0 column of a cores x chunks table.)
[[nodiscard]] Instance leading_resources(const Instance& instance, std::size_t count);

}  // namespace cosched::sched
