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

// A running task as the fluid model sees it: its demand on each pool when alone (bytes/s, >= 0) and its weight
// (the cores it streams with, > 0).
struct FlowDemand {
  std::vector<double> bytes_per_s;  // one per pool
  double cores = 1.0;
};

// Weighted max-min fair progress rates, one per flow, in [0, 1]: sum_j r_j d_jq <= capacities[q] for every pool,
// r_j <= 1, and flows bottlenecked on the same pool move equal bytes/s per core. A flow with no demand runs at 1.
// A pool of capacity 0 stops every flow that needs it (rate 0).
[[nodiscard]] std::vector<double> share_max_min(std::span<const double> capacities, std::span<const FlowDemand> flows);

// What each pool delivers to these flows running together: capacity(cores streaming from it), but at least the
// largest demand of any one of them — a task's demand was measured alone on this node, so the pool can serve it
// alone; a calibration made in a slower phase of the machine must not slow a lone task down.
[[nodiscard]] std::vector<double> pool_capacities(const BandwidthModel& model, std::span<const FlowDemand> flows);

// share_max_min(pool_capacities(model, flows), flows): the progress rates of flows running together.
[[nodiscard]] std::vector<double> progress_rates(const BandwidthModel& model, std::span<const FlowDemand> flows);

}  // namespace cosched::sched
