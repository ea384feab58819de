#include "cosched/sched/allocation.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <queue>

#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/compensated_sum.hpp"
#include "cosched/sched/rows.hpp"

namespace cosched::sched {

namespace {

// Non-negative doubles order like their bit patterns, so the top bits of a time are a monotone bucket key.
std::uint64_t time_bits(double time) noexcept { return std::bit_cast<std::uint64_t>(time + 0.0); }

bool by_time_then_area(const AdmissibleAllocation& a, const AdmissibleAllocation& b) noexcept {
  if (a.time != b.time) return a.time < b.time;
  if (a.area != b.area) return a.area < b.area;
  return a.index < b.index;
}

}  // namespace

// Sorting all P allocations (the paper's O(P log P)) dominates RA_d for d = 4. The scan below returns the same
// list in O(P) plus a sort of the few survivors, in three streaming passes over the task's times:
//  1. the range of the finite times;
//  2. times are bucketed by their top bits (monotone in the value for t >= 0) and each bucket's minimum area is
//     recorded. The running min_area of Algorithm 1 on entering bucket b is then exactly the minimum area over all
//     buckets before b — whatever happens inside those buckets;
//  3. an allocation can only be appended if its area is below its bucket's threshold. Survivors are also dropped
//     when t(p - e_i) == t(p) for some i: p - e_i has the same time, a smaller area and a smaller index, so it is
//     scanned first and blocks p (this removes the plateaus the monotone closure creates in measured tables).
//     The rest is sorted by (time, area, index) and scanned exactly as in lines 8-12.
// Areas are weights * times with weights = sum_i p_i/P(i) cached per space, bit-identical to area().
void AdmissibleScanner::scan(const AllocationSpace& space, const TimeProfile& profile,
                             std::vector<AdmissibleAllocation>& out) {
  out.clear();
  const std::size_t size = space.size();
  times_.resize(size);
  profile.fill_times(space, times_);
  const double* times = times_.data();
  const double* weights = weights_for(space);

  // Pass 1. Four accumulators break the min/max latency chains.
  std::array<double, 4> lows{kInfinity, kInfinity, kInfinity, kInfinity};
  std::array<double, 4> highs{0.0, 0.0, 0.0, 0.0};
  std::size_t position = 0;
  for (; position + 4 <= size; position += 4) {
    for (std::size_t lane = 0; lane < 4; ++lane) {
      const double t = times[position + lane];
      lows[lane] = std::min(lows[lane], t);
      highs[lane] = std::max(highs[lane], t < kInfinity ? t : 0.0);
    }
  }
  for (; position < size; ++position) {
    lows[0] = std::min(lows[0], times[position]);
    highs[0] = std::max(highs[0], times[position] < kInfinity ? times[position] : 0.0);
  }
  const double min_time = std::min(std::min(lows[0], lows[1]), std::min(lows[2], lows[3]));
  const double max_time = std::max(std::max(highs[0], highs[1]), std::max(highs[2], highs[3]));
  if (min_time == kInfinity) return;  // the task cannot run at all

  const std::uint64_t min_bits = time_bits(min_time);
  const std::uint64_t range = time_bits(max_time) - min_bits;
  const std::size_t target_buckets = std::clamp<std::size_t>(size, 1, std::size_t{1} << 18);
  unsigned shift = 0;
  while ((range >> shift) >= target_buckets) ++shift;
  const auto bucket_of = [min_bits, shift](double t) {
    return static_cast<std::size_t>((time_bits(t) - min_bits) >> shift);
  };

  // Pass 2.
  bucket_threshold_.assign(static_cast<std::size_t>(range >> shift) + 1, kInfinity);
  double* thresholds = bucket_threshold_.data();
  for (std::size_t index = 0; index < size; ++index) {
    const double t = times[index];
    if (t == kInfinity) continue;
    double& bucket_min = thresholds[bucket_of(t)];
    bucket_min = std::min(bucket_min, weights[index] * t);
  }
  double running = kInfinity;  // per-bucket minima -> minimum over all earlier buckets, in place
  for (double& threshold : bucket_threshold_) {
    const double bucket_min = threshold;
    threshold = running;
    running = std::min(running, bucket_min);
  }

  // Pass 3.
  candidates_.clear();
  for (std::size_t index = 0; index < size; ++index) {
    const double t = times[index];
    if (t == kInfinity) continue;
    const double a = weights[index] * t;
    if (a < thresholds[bucket_of(t)] && !blocked_by_smaller_neighbour(space, times, index)) {
      candidates_.push_back({t, a, index});
    }
  }
  std::sort(candidates_.begin(), candidates_.end(),
            [](const AdmissibleAllocation& a, const AdmissibleAllocation& b) { return by_time_then_area(a, b); });
  double min_area = kInfinity;
  for (const auto& candidate : candidates_) {
    if (candidate.area < min_area) {
      min_area = candidate.area;
      out.push_back(candidate);
    }
  }
}

const double* AdmissibleScanner::weights_for(const AllocationSpace& space) {
  if (weights_capacities_ != space.capacities()) {
    weights_capacities_ = space.capacities();
    weights_.resize(space.size());
    const std::size_t last = space.dimensions() - 1;
    for (RowWalker row(space); row.valid(); row.advance()) {
      for (std::size_t k = 0; k < row.row_length(); ++k) {
        weights_[row.base() + k] = row.outer_share() + space.share(last, static_cast<int>(k));
      }
    }
  }
  return weights_.data();
}

bool AdmissibleScanner::blocked_by_smaller_neighbour(const AllocationSpace& space, const double* times,
                                                     std::size_t index) {
  std::size_t rest = index;
  for (std::size_t i = 0; i < space.dimensions(); ++i) {
    const std::size_t stride = space.stride(i);
    const bool has_neighbour = rest >= stride;  // p_i > 0
    rest %= stride;
    if (has_neighbour && times[index - stride] == times[index]) return true;
  }
  return false;
}

namespace {

struct QueueEntry {
  double time;
  std::size_t task;
};
// Max-heap on time; among equal times the lowest task index is on top, so runs are deterministic.
struct LowerPriority {
  bool operator()(const QueueEntry& a, const QueueEntry& b) const noexcept {
    if (a.time != b.time) return a.time < b.time;
    return a.task > b.task;
  }
};

}  // namespace

ResourceAllocation allocate_resources(const Instance& instance, double s) {
  assert(s > 0);
  const std::size_t n = instance.task_count();
  ResourceAllocation result;
  if (n == 0) return result;

  // Lines 5-12 happen inside the fronts: each task starts at its front's least area (its longest admissible time),
  // and shortening a task moves it to the entry before.
  std::vector<std::shared_ptr<const ParetoFront>> fronts(n);
  std::vector<AdmissibleAllocation> start(n);
  for (std::size_t j = 0; j < n; ++j) {
    fronts[j] = instance.tasks()[j].profile->front(instance.space());
    const std::optional<AdmissibleAllocation> longest = fronts[j]->least_area();
    if (!longest) {
      throw InputError("task \"" + instance.tasks()[j].id + "\"",
                       "cannot run with any allocation (every execution time is infinite)");
    }
    start[j] = *longest;
  }

  // Lines 13-32: repeatedly shorten the task that defines t_max. Each step is logged so the best matrix is rebuilt
  // at the end instead of copied n times.
  std::vector<AdmissibleAllocation> current = start;
  CompensatedSum total_area;
  std::vector<QueueEntry> heap_storage;
  heap_storage.reserve(n);
  for (std::size_t j = 0; j < n; ++j) {
    total_area.add(current[j].area);
    heap_storage.push_back({current[j].time, j});
  }
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, LowerPriority> queue(LowerPriority{},
                                                                                std::move(heap_storage));
  struct Step {
    std::size_t task;
    AdmissibleAllocation entry;  // what the task was shortened to
  };
  std::vector<Step> steps;
  double best = kInfinity;
  std::size_t best_step = 0;
  while (true) {
    const QueueEntry top = queue.top();
    const double area_term = total_area.value() / s;
    const double value = std::max(area_term, top.time);
    if (value < best) {
      best = value;
      best_step = steps.size();
    }
    if (area_term >= top.time) break;  // the area only grows from here on
    queue.pop();
    const std::size_t k = top.task;
    const std::optional<AdmissibleAllocation> shorter = fronts[k]->shorter_than(current[k]);
    if (!shorter) break;  // task k has no shorter admissible allocation: |Q| < n
    const double old_area = current[k].area;
    current[k] = *shorter;
    total_area.add(current[k].area);
    total_area.add(-old_area);
    queue.push({current[k].time, k});
    steps.push_back({k, *shorter});
  }

  std::vector<AdmissibleAllocation>& chosen = start;
  for (std::size_t step = 0; step < best_step; ++step) chosen[steps[step].task] = steps[step].entry;
  result.allocation.resize(n);
  result.time.resize(n);
  CompensatedSum exact_area;
  for (std::size_t j = 0; j < n; ++j) {
    result.allocation[j] = chosen[j].index;
    result.time[j] = chosen[j].time;
    result.max_time = std::max(result.max_time, chosen[j].time);
    exact_area.add(chosen[j].area);
  }
  result.total_area = exact_area.value();
  result.bound = std::max(result.total_area / s, result.max_time);
  return result;
}

double lower_bound(const Instance& instance) {
  return allocate_resources(instance, static_cast<double>(instance.dimensions())).bound;
}

double allocation_bound(const Instance& instance, std::span<const std::size_t> allocation,
                        std::span<const double> time) {
  assert(allocation.size() == time.size());
  CompensatedSum total;
  double longest = 0.0;
  for (std::size_t j = 0; j < allocation.size(); ++j) {
    total.add(area(instance.space(), instance.space().decode(allocation[j]), time[j]));
    longest = std::max(longest, time[j]);
  }
  return std::max(total.value() / static_cast<double>(instance.dimensions()), longest);
}

}  // namespace cosched::sched
