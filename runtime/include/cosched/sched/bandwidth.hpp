#pragma once
// Memory bandwidth as a shared resource (issue 10): the node's memory pools, each delivering an aggregate
// bandwidth that depends on how many cores stream from it, and the fluid model that shares it among running
// tasks. The paper's model (Sec. 3) gives a task a time that depends only on its own allocation; co-runners that
// share a pool slow each other down, and this is what a prediction has to add to that time.
//
// A task j running alone at allocation p moves traffic_jq bytes from pool q in t_j(p) seconds: its demand is
// d_jq = traffic_jq / t_j(p) bytes/s. Running together, tasks get progress rates r_j in (0, 1] (1 = as fast as
// alone), chosen max-min fairly on the bytes/s each moves per streaming core (progressive filling, the way
// SimGrid's LMM solver shares links): every task is sped up equally until a pool is full or a task reaches its
// own demand, those are frozen, and the rest continue. So a task slows only while a pool it uses is
// over-subscribed, and tasks bottlenecked on the same pool move the same bytes/s per core.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace cosched::sched {

// One memory pool: the aggregate bytes/s it delivers with k cores streaming from it (measured by `cosched
// calibrate`, or documented for a model node). Between points linear, beyond the last point flat, below the
// first point proportional to k.
struct BandwidthPool {
  std::string name;
  std::vector<double> cores;        // ascending, >= 1
  std::vector<double> bytes_per_s;  // same length, finite, > 0
  [[nodiscard]] double capacity(double streaming_cores) const;
};

struct BandwidthModel {
  std::vector<BandwidthPool> pools;
  nlohmann::json provenance = nlohmann::json::object();  // where the numbers come from (host, date, method, ...)
  [[nodiscard]] bool empty() const noexcept { return pools.empty(); }
  // The most the pool delivers to any number of cores (the planning capacity of the bandwidth-aware algorithm).
  [[nodiscard]] double peak(std::size_t pool) const;
};

// Throws InputError(where, ...) for an empty or duplicate pool name, curves that are empty, of unequal length,
// not ascending in cores, with cores < 1, or with a bandwidth that is not finite and > 0.
void check_bandwidth_model(const BandwidthModel& model, const std::string& where);

// A running task as the fluid model sees it: its demand on each pool while it streams (bytes/s, >= 0), its weight
// (the cores it streams with, > 0) and the share of its time alone it spends streaming.
//
// A whole process does not stream all the time: start-up, allocation and first touch, and validation take a
// part of the time a process profile measures (a fifth of it for the demo's tasks, docs/fidelity.md). Spreading
// the traffic over the whole time would under-state what the task asks of a pool while it streams, and no
// co-runner would seem to slow it. So a task is two interleaved parts: a streaming share s that moves its
// traffic at the demand below and slows by the pool's rate r, and a share 1 - s that never slows; its progress
// rate is 1 / ((1 - s) + s / r).
struct FlowDemand {
  std::vector<double> bytes_per_s;  // one per pool, while streaming
  double cores = 1.0;
  double streaming_share = 1.0;     // in (0, 1]
};

// Weighted max-min fair progress rates, one per flow, in [0, 1]: sum_j r_j d_jq <= capacities[q] for every pool,
// r_j <= 1, and flows bottlenecked on the same pool move equal bytes/s per core. A flow with no demand runs at 1.
// A pool of capacity 0 stops every flow that needs it (rate 0).
[[nodiscard]] std::vector<double> share_max_min(std::span<const double> capacities, std::span<const FlowDemand> flows);

// What each pool delivers to these flows running together: capacity(cores streaming from it), but at least the
// largest demand of any one of them — a task's demand was measured alone on this node, so the pool can serve it
// alone; a calibration made in a slower phase of the machine must not slow a lone task down.
[[nodiscard]] std::vector<double> pool_capacities(const BandwidthModel& model, std::span<const FlowDemand> flows);

// The progress rates of flows running together: the pools' rates r_j = share_max_min(pool_capacities(model,
// flows), flows), each applied to the flow's streaming share only: 1 / ((1 - s_j) + s_j / r_j) (0 when r_j = 0).
[[nodiscard]] std::vector<double> progress_rates(const BandwidthModel& model, std::span<const FlowDemand> flows);

// A task alone that moves `average_bytes_per_s` from each pool over its whole time, on `cores` cores, as a flow:
// its streaming share is the largest ratio, over the pools, of that average to what the pool delivers to
// `cores` cores alone (at most 1, at least kMinStreamingShare), and its streaming demand the average over that
// share. A task that already moves what the pool delivers streams all the time.
inline constexpr double kMinStreamingShare = 0.05;
[[nodiscard]] FlowDemand flow_of_task(const BandwidthModel& model, std::vector<double> average_bytes_per_s,
                                      double cores);

// A task alone that moves `traffic_bytes` (one per pool of `model`) in `seconds` on `cores` cores, as a flow:
// flow_of_task of traffic / seconds. No traffic (empty), or a time that is not finite and > 0: a flow that never
// contends (no demand on any pool). The one rule by which an Instance (Instance::demand) and a Schedule JSON that
// carries the instance's model (sched/schedule_document.hpp) turn a task's traffic into its demand.
[[nodiscard]] FlowDemand flow_of_traffic(const BandwidthModel& model, std::span<const double> traffic_bytes,
                                         double seconds, double cores);

// What a task whose traffic is not known — a user's command, or a STREAM task whose counted bytes the cache may
// partly serve — moves from one pool, read off how much two copies of it slowed each other (issues 24 and 23): both
// copies run side by side at the same allocation, each on `cores` cores of its own, and take `slowdown` times as
// long as one alone. Two flows of flow_of_task at an average of a bytes/s each: the larger a, the more the fluid
// model slows the pair (first by a larger streaming share, then, past what the curve gives their cores alone, by a
// larger demand on the pool both share), up to twice as long once each asks for all of capacity(2 x cores); the
// answer is the a in [0, capacity(2 x cores)] at which the model slows the pair by `slowdown` (bisection on
// progress_rates, so prediction and probe use one rule). A copy may move more than capacity(cores): the curve is
// one kernel's, or the median over kernels, at one footprint, and a task that streams otherwise draws otherwise. A
// measured slowdown beyond the model's most (2): capacity(2 x cores) (`beyond_model`).
struct PairedDemand {
  double average_bytes_per_s = 0.0;
  bool beyond_model = false;        // slowed more than the model slows two copies that each ask for the whole pool
  double model_max_slowdown = 1.0;  // the model's slowdown of the pair at capacity(2 x cores)
};
[[nodiscard]] PairedDemand paired_demand(const BandwidthModel& model, std::size_t pool, double cores,
                                         double slowdown);

// Every average a copy may move that fits a probe whose copies slowed between `least_slowdown` and `most_slowdown`
// (its repetitions' spread): the model slows a pair by those or between them at the averages in
// [lowest, highest]. Where the model's slowdown is flat in the average — below what the pool gives both copies'
// cores, a pair does not slow at all — one measured slowdown fits a wide range: a pair that slowed 1.0 fits any
// average up to where the model starts slowing it, not only 0. lowest is paired_demand(least_slowdown)'s average;
// highest the largest average the model slows by at most max(most_slowdown, 1), capacity(2 x cores) when the
// model never slows it by more.
struct PairedDemandRange {
  double lowest_bytes_per_s = 0.0;
  double highest_bytes_per_s = 0.0;
};
[[nodiscard]] PairedDemandRange paired_demand_range(const BandwidthModel& model, std::size_t pool, double cores,
                                                    double least_slowdown, double most_slowdown);

}  // namespace cosched::sched
