#include "cosched/sched/bandwidth.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "cosched/common/error.hpp"

namespace cosched::sched {

double BandwidthPool::capacity(double streaming_cores) const {
  assert(!cores.empty() && cores.size() == bytes_per_s.size());
  if (streaming_cores <= 0.0) return 0.0;
  if (streaming_cores <= cores.front()) return bytes_per_s.front() * streaming_cores / cores.front();
  if (streaming_cores >= cores.back()) return bytes_per_s.back();
  const auto upper = std::upper_bound(cores.begin(), cores.end(), streaming_cores);
  const auto i = static_cast<std::size_t>(upper - cores.begin());
  const double share = (streaming_cores - cores[i - 1]) / (cores[i] - cores[i - 1]);
  return bytes_per_s[i - 1] + share * (bytes_per_s[i] - bytes_per_s[i - 1]);
}

double BandwidthModel::peak(std::size_t pool) const {
  const auto& values = pools.at(pool).bytes_per_s;
  return *std::max_element(values.begin(), values.end());
}

void check_bandwidth_model(const BandwidthModel& model, const std::string& where) {
  std::unordered_set<std::string> names;
  for (std::size_t q = 0; q < model.pools.size(); ++q) {
    const BandwidthPool& pool = model.pools[q];
    const std::string here = fmt::format("{}: pools[{}]", where, q);
    if (pool.name.empty()) throw InputError(here, "the pool has no name");
    if (!names.insert(pool.name).second) throw InputError(here, fmt::format("pool \"{}\" is named twice", pool.name));
    if (pool.cores.empty() || pool.cores.size() != pool.bytes_per_s.size()) {
      throw InputError(here, fmt::format("pool \"{}\" needs as many bandwidths as core counts, at least one (got {} "
                                         "and {})",
                                         pool.name, pool.bytes_per_s.size(), pool.cores.size()));
    }
    for (std::size_t k = 0; k < pool.cores.size(); ++k) {
      if (!(std::isfinite(pool.cores[k]) && pool.cores[k] >= 1.0) || (k > 0 && !(pool.cores[k] > pool.cores[k - 1]))) {
        throw InputError(here, fmt::format("cores[{}] = {} must be >= 1 and above the one before", k, pool.cores[k]));
      }
      if (!(std::isfinite(pool.bytes_per_s[k]) && pool.bytes_per_s[k] > 0.0)) {
        throw InputError(here, fmt::format("bytes_per_s[{}] = {} must be finite and > 0", k, pool.bytes_per_s[k]));
      }
    }
  }
}

std::vector<double> share_max_min(std::span<const double> capacities, std::span<const FlowDemand> flows) {
  constexpr double relative_slack = 1e-12;  // rounding: a pool or a flow this close to its limit has reached it
  std::vector<double> rate(flows.size(), 1.0);
  std::vector<double> total(flows.size(), 0.0);  // D_j: bytes/s over all pools when alone
  std::vector<std::size_t> active;
  for (std::size_t j = 0; j < flows.size(); ++j) {
    assert(flows[j].bytes_per_s.size() == capacities.size() && flows[j].cores > 0.0);
    for (const double demand : flows[j].bytes_per_s) total[j] += demand;
    if (total[j] > 0.0) active.push_back(j);
  }
  std::vector<double> remaining(capacities.begin(), capacities.end());
  // Progressive filling on the level L: an active flow moves cores_j * L bytes/s, i.e. runs at rate
  // cores_j * L / D_j, spread over its pools in proportion to its demands.
  while (!active.empty()) {
    double level = std::numeric_limits<double>::infinity();
    std::vector<double> load_per_level(capacities.size(), 0.0);  // bytes/s a pool carries per unit of level
    for (const std::size_t j : active) {
      level = std::min(level, total[j] / flows[j].cores);  // the level where flow j reaches rate 1
      for (std::size_t q = 0; q < capacities.size(); ++q) {
        load_per_level[q] += flows[j].cores * flows[j].bytes_per_s[q] / total[j];
      }
    }
    for (std::size_t q = 0; q < capacities.size(); ++q) {
      if (load_per_level[q] > 0.0) level = std::min(level, std::max(0.0, remaining[q]) / load_per_level[q]);
    }
    std::vector<bool> saturated(capacities.size(), false);
    for (std::size_t q = 0; q < capacities.size(); ++q) {
      saturated[q] = load_per_level[q] > 0.0 &&
                     load_per_level[q] * level >= std::max(0.0, remaining[q]) * (1.0 - relative_slack);
    }
    std::vector<std::size_t> still_active;
    for (const std::size_t j : active) {
      const double reached = std::min(1.0, flows[j].cores * level / total[j]);
      bool frozen = reached >= 1.0 - relative_slack;
      for (std::size_t q = 0; q < capacities.size() && !frozen; ++q) {
        frozen = saturated[q] && flows[j].bytes_per_s[q] > 0.0;
      }
      if (!frozen) {
        still_active.push_back(j);
        continue;
      }
      rate[j] = reached >= 1.0 - relative_slack ? 1.0 : reached;
      for (std::size_t q = 0; q < capacities.size(); ++q) remaining[q] -= rate[j] * flows[j].bytes_per_s[q];
    }
    // Each round freezes at least one flow: the minimum level is reached by a flow or by a pool some flow uses.
    assert(still_active.size() < active.size());
    if (still_active.size() == active.size()) break;  // unreachable; keeps a release build from looping
    active = std::move(still_active);
  }
  return rate;
}

std::vector<double> pool_capacities(const BandwidthModel& model, std::span<const FlowDemand> flows) {
  std::vector<double> capacities(model.pools.size(), 0.0);
  for (std::size_t q = 0; q < model.pools.size(); ++q) {
    double streaming = 0.0;
    double largest = 0.0;
    for (const FlowDemand& flow : flows) {
      if (flow.bytes_per_s[q] <= 0.0) continue;
      streaming += flow.cores;
      largest = std::max(largest, flow.bytes_per_s[q]);
    }
    capacities[q] = std::max(model.pools[q].capacity(streaming), largest);
  }
  return capacities;
}

std::vector<double> progress_rates(const BandwidthModel& model, std::span<const FlowDemand> flows) {
  std::vector<double> rates = share_max_min(pool_capacities(model, flows), flows);
  for (std::size_t j = 0; j < rates.size(); ++j) {
    const double share = flows[j].streaming_share;
    assert(share > 0.0 && share <= 1.0);
    if (rates[j] >= 1.0 || share >= 1.0) continue;  // unslowed, or all streaming: the pool's rate is the task's
    rates[j] = rates[j] <= 0.0 ? 0.0 : 1.0 / ((1.0 - share) + share / rates[j]);
  }
  return rates;
}

FlowDemand flow_of_task(const BandwidthModel& model, std::vector<double> average_bytes_per_s, double cores) {
  assert(average_bytes_per_s.size() == model.pools.size());
  double share = kMinStreamingShare;
  bool streams = false;
  for (std::size_t q = 0; q < model.pools.size(); ++q) {
    if (average_bytes_per_s[q] <= 0.0) continue;
    streams = true;
    share = std::max(share, average_bytes_per_s[q] / model.pools[q].capacity(cores));
  }
  share = streams ? std::min(share, 1.0) : 1.0;
  for (double& demand : average_bytes_per_s) demand /= share;
  return {std::move(average_bytes_per_s), cores, share};
}

FlowDemand flow_of_traffic(const BandwidthModel& model, std::span<const double> traffic_bytes, double seconds,
                           double cores) {
  std::vector<double> average(model.pools.size(), 0.0);
  if (traffic_bytes.empty() || !(seconds > 0.0) || std::isinf(seconds)) return {std::move(average), cores, 1.0};
  assert(traffic_bytes.size() == model.pools.size());
  for (std::size_t q = 0; q < average.size(); ++q) average[q] = traffic_bytes[q] / seconds;
  return flow_of_task(model, std::move(average), cores);
}

namespace {

// Two copies of one task side by side, each on `cores` cores moving an average of `average` bytes/s from `pool`
// alone: how much the fluid model slows them (1 / each copy's progress rate), and up to what average a copy can ask.
class CopyPair {
 public:
  CopyPair(const BandwidthModel& model, std::size_t pool, double cores) : model_(model), pool_(pool), cores_(cores) {
    assert(pool < model.pools.size() && cores >= 1.0);
  }
  [[nodiscard]] double slowdown(double average) const {
    std::vector<double> demand(model_.pools.size(), 0.0);
    demand[pool_] = average;
    const FlowDemand copy = flow_of_task(model_, std::move(demand), cores_);
    const std::vector<FlowDemand> pair{copy, copy};
    const double rate = progress_rates(model_, pair).front();
    return rate > 0.0 ? 1.0 / rate : std::numeric_limits<double>::infinity();
  }
  // Up to what both copies' cores draw together: a copy may move more than the curve gives its cores alone (the
  // curve is one kernel's, or the median over kernels, at one footprint; a task that streams otherwise, or whose
  // data the cache partly serves, draws otherwise), and beyond that the pair only shares the pool in halves.
  [[nodiscard]] double most() const {
    return std::max(model_.pools[pool_].capacity(2.0 * cores_), model_.pools[pool_].capacity(cores_));
  }
  // The slowdown grows with the average, so by bisection over [0, most()]: with `at_least`, the smallest average
  // the model slows by `slowdown` or more; else the largest it slows by `slowdown` or less. (Invariant: `high`
  // is beyond the boundary, `low` is not.)
  [[nodiscard]] double boundary(double slowdown, bool at_least) const {
    double low = 0.0, high = most();
    const auto beyond = [&](double average) {
      return at_least ? this->slowdown(average) >= slowdown : this->slowdown(average) > slowdown;
    };
    for (int step = 0; step < 100 && high - low > 1e-12 * most(); ++step) {
      const double middle = 0.5 * (low + high);
      (beyond(middle) ? high : low) = middle;
    }
    return at_least ? high : low;
  }

 private:
  const BandwidthModel& model_;
  std::size_t pool_;
  double cores_;
};

}  // namespace

PairedDemand paired_demand(const BandwidthModel& model, std::size_t pool, double cores, double slowdown) {
  const CopyPair pair(model, pool, cores);
  PairedDemand found;
  found.model_max_slowdown = pair.slowdown(pair.most());  // 2: each copy gets half of what it would move alone
  if (!(slowdown > 1.0)) return found;  // no slowdown measured: nothing moved that the pool had to share
  if (slowdown >= found.model_max_slowdown) {
    found.average_bytes_per_s = pair.most();
    found.beyond_model = slowdown > found.model_max_slowdown;
    return found;
  }
  found.average_bytes_per_s = pair.boundary(slowdown, /*at_least=*/true);
  return found;
}

PairedDemandRange paired_demand_range(const BandwidthModel& model, std::size_t pool, double cores,
                                      double least_slowdown, double most_slowdown) {
  assert(least_slowdown <= most_slowdown);
  const CopyPair pair(model, pool, cores);
  PairedDemandRange range;
  range.lowest_bytes_per_s = paired_demand(model, pool, cores, least_slowdown).average_bytes_per_s;
  // A slowdown below 1 (faster beside a copy than alone) is noise: nothing the model does, so as much as none.
  const double at_most = std::max(most_slowdown, 1.0);
  range.highest_bytes_per_s =
      at_most >= pair.slowdown(pair.most()) ? pair.most() : pair.boundary(at_most, /*at_least=*/false);
  range.highest_bytes_per_s = std::max(range.highest_bytes_per_s, range.lowest_bytes_per_s);
  return range;
}

}  // namespace cosched::sched
