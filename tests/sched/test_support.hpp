#pragma once
// Shared helpers of the sched tests: random dense instances and an exact optimum for tiny instances.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cosched/sched/generator.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/pareto_front.hpp"

namespace cosched::sched::testing {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// "t3", "r1": built with append because GCC 12 warns falsely (-Wrestrict) on "literal" + std::string at -O3.
inline std::string numbered(const char* prefix, std::size_t k) {
  std::string name(prefix);
  name.append(std::to_string(k));
  return name;
}

// Relative comparison for values computed along different but exact-in-theory paths.
inline bool close_or_below(double a, double b) { return a <= b + 1e-9 * std::max(1.0, std::fabs(b)); }

// Raw times: integers 1..8 (ties and plateaus on purpose) or +inf with probability `infeasible`; the full
// allocation is always finite so every task can run. DenseTimeTable applies the monotone closure.
inline Instance random_dense_instance(std::uint64_t seed, std::vector<int> capacities, std::size_t tasks,
                                      double infeasible = 0.25) {
  Random random(seed);
  std::vector<Resource> resources;
  for (std::size_t i = 0; i < capacities.size(); ++i) resources.push_back({numbered("r", i), capacities[i]});
  const AllocationSpace space(capacities);
  std::vector<Task> list;
  for (std::size_t j = 0; j < tasks; ++j) {
    std::vector<double> raw(space.size());
    for (double& t : raw) t = random.uniform01() < infeasible ? kInf : static_cast<double>(1 + random.index(8));
    raw.back() = static_cast<double>(1 + random.index(8));
    list.push_back({numbered("t", j), std::make_shared<DenseTimeTable>(space, std::move(raw))});
  }
  return Instance(std::move(resources), std::move(list));
}

// `instance` with a bandwidth model of `pools` pools (capacity 10..40 bytes/s, flat in cores) and random traffic
// per task (0..4x what its time at that allocation moves at the pool's capacity, some tasks without traffic).
inline Instance with_random_traffic(const Instance& instance, std::uint64_t seed, std::size_t pools) {
  Random random(seed);
  BandwidthModel model;
  for (std::size_t q = 0; q < pools; ++q) {
    model.pools.push_back({numbered("pool", q), {1.0}, {static_cast<double>(10 + random.index(31))}});
  }
  std::vector<Task> tasks = instance.tasks();
  std::vector<double> times(instance.space().size());
  for (Task& task : tasks) {
    if (random.index(4) == 0) continue;  // unknown traffic: never contends
    task.profile->fill_times(instance.space(), times);
    auto traffic = std::make_shared<TrafficTable>();
    for (std::size_t q = 0; q < pools; ++q) {
      const double factor = static_cast<double>(random.index(5));
      std::vector<double> bytes(times.size());
      for (std::size_t k = 0; k < times.size(); ++k) {
        bytes[k] = std::isinf(times[k]) ? 0.0 : factor * times[k] * model.pools[q].bytes_per_s[0];
      }
      traffic->push_back(std::move(bytes));
    }
    task.traffic = std::move(traffic);
  }
  return Instance(instance.resources(), std::move(tasks), instance.attributes(), std::move(model));
}

// Lines 5-12 of Algorithm 1 as written, the reference for every faster way to the same list: sort all P
// allocations by time (ties by area, then index), keep an allocation when its area is below every area seen so far.
inline std::vector<AdmissibleAllocation> sort_and_scan_front(const AllocationSpace& space, const TimeProfile& profile) {
  std::vector<double> times(space.size());
  profile.fill_times(space, times);
  std::vector<AdmissibleAllocation> all;
  for (std::size_t index = 0; index < space.size(); ++index) {
    all.push_back({times[index], area(space, space.decode(index), times[index]), index});
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.area != b.area) return a.area < b.area;
    return a.index < b.index;
  });
  std::vector<AdmissibleAllocation> admissible;
  double min_area = kInf;
  for (const auto& entry : all) {
    if (entry.area < min_area) {
      min_area = entry.area;
      admissible.push_back(entry);
    }
  }
  return admissible;
}

// Dense instance from explicit raw tables (closed on construction).
inline Instance dense_instance(std::vector<int> capacities, const std::vector<std::vector<double>>& raw_times) {
  std::vector<Resource> resources;
  for (std::size_t i = 0; i < capacities.size(); ++i) resources.push_back({numbered("r", i), capacities[i]});
  const AllocationSpace space(capacities);
  std::vector<Task> tasks;
  for (std::size_t j = 0; j < raw_times.size(); ++j) {
    tasks.push_back({numbered("t", j), std::make_shared<DenseTimeTable>(space, raw_times[j])});
  }
  return Instance(std::move(resources), std::move(tasks));
}

// Exact optimal makespan of a tiny instance (n <= 5, small P).
//  * Allocations: only the minimal ones, p with t(p) finite and t(p - e_i) > t(p) for every p_i > 0. Any other p
//    has some q <= p, q != p with t(q) <= t(p) and can be replaced by q in any schedule (footnote 1).
//  * Rigid schedules: for makespan (a regular objective) without precedences, some optimal schedule is active,
//    and every active schedule is produced by the serial schedule-generation scheme (each task in list order at the
//    earliest time it fits for its whole duration, backfilling allowed) for some list (Kolisch 1996, "Serial and
//    parallel resource-constrained project scheduling methods revisited", EJOR 90). So the minimum over all lists
//    and all minimal allocation vectors of the serial SGS makespan is the optimum.
class BruteForceOptimum {
 public:
  explicit BruteForceOptimum(const Instance& instance) : instance_(instance), d_(instance.dimensions()) {}

  double solve() {
    const auto& space = instance_.space();
    options_.assign(instance_.task_count(), {});
    std::vector<int> p(d_), q(d_);
    for (std::size_t j = 0; j < instance_.task_count(); ++j) {
      for (std::size_t index = 0; index < space.size(); ++index) {
        space.decode(index, p);
        const double t = instance_.time(j, p);
        if (std::isinf(t)) continue;
        bool minimal = true;
        for (std::size_t i = 0; i < d_ && minimal; ++i) {
          if (p[i] == 0) continue;
          q = p;
          --q[i];
          minimal = instance_.time(j, q) > t;
        }
        if (minimal) options_[j].push_back({p, t});
      }
    }
    best_ = kInf;
    chosen_.assign(instance_.task_count(), nullptr);
    choose(0, 0.0);
    return best_;
  }

 private:
  struct Option {
    std::vector<int> alloc;
    double time;
  };
  struct Placed {
    double start, end;
    const Option* option;
  };

  void choose(std::size_t j, double longest) {
    if (longest >= best_) return;
    if (j == chosen_.size()) {
      std::vector<std::size_t> order(chosen_.size());
      for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
      do {
        best_ = std::min(best_, serial_sgs(order));
      } while (std::next_permutation(order.begin(), order.end()));
      return;
    }
    for (const auto& option : options_[j]) {
      chosen_[j] = &option;
      choose(j + 1, std::max(longest, option.time));
    }
  }

  bool fits(const std::vector<Placed>& placed, const Option& option, double from) const {
    const double to = from + option.time;
    std::vector<double> checkpoints{from};
    for (const auto& other : placed) {
      if (other.start > from && other.start < to) checkpoints.push_back(other.start);
    }
    for (double x : checkpoints) {
      for (std::size_t i = 0; i < d_; ++i) {
        long long used = option.alloc[i];
        for (const auto& other : placed) {
          if (other.start <= x && x < other.end) used += other.option->alloc[i];
        }
        if (used > instance_.space().capacity(i)) return false;
      }
    }
    return true;
  }

  double serial_sgs(const std::vector<std::size_t>& order) const {
    std::vector<Placed> placed;
    double makespan = 0.0;
    for (std::size_t j : order) {
      const Option& option = *chosen_[j];
      std::vector<double> starts{0.0};
      for (const auto& other : placed) starts.push_back(other.end);
      std::sort(starts.begin(), starts.end());
      for (double start : starts) {
        if (option.time == 0.0 || fits(placed, option, start)) {
          placed.push_back({start, start + option.time, &option});
          makespan = std::max(makespan, start + option.time);
          break;
        }
      }
      if (makespan >= best_) return kInf;
    }
    return makespan;
  }

  const Instance& instance_;
  std::size_t d_;
  std::vector<std::vector<Option>> options_;
  std::vector<const Option*> chosen_;
  double best_ = kInf;
};

inline double brute_force_optimum(const Instance& instance) { return BruteForceOptimum(instance).solve(); }

}  // namespace cosched::sched::testing
