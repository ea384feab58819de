// The canonical allotments and the weight knapsack of seed 001 (Sec. 3.2), on d resources.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/sched/bicriteria.hpp"

namespace cosched::sched {

CanonicalAllotments::CanonicalAllotments(const Instance& instance) {
  AdmissibleScanner scanner;
  lists_.resize(instance.task_count());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    scanner.scan(instance.space(), *instance.tasks()[j].profile, lists_[j]);
    if (lists_[j].empty()) {
      throw InputError("task \"" + instance.tasks()[j].id + "\"",
                       "cannot run with any allocation (every execution time is infinite)");
    }
  }
}

const AdmissibleAllocation* CanonicalAllotments::within(std::size_t task, double limit) const {
  const auto& list = lists_[task];
  // Times increase and areas decrease along the list: the last entry with time <= limit is the cheapest that fits.
  const auto after = std::upper_bound(list.begin(), list.end(), limit,
                                      [](double value, const AdmissibleAllocation& a) { return value < a.time; });
  return after == list.begin() ? nullptr : &*(after - 1);
}

std::vector<std::size_t> max_weight_knapsack(const std::vector<KnapsackItem>& items,
                                             const std::vector<int>& capacities) {
  const AllocationSpace space(capacities);
  const std::size_t states = space.size();
  const std::size_t d = capacities.size();
  // Every capacity vector decoded once, so "does item i fit in c" is d comparisons.
  std::vector<int> coordinates(states * d);
  for (std::size_t c = 0; c < states; ++c) space.decode(c, std::span<int>(coordinates.data() + c * d, d));

  // best[c] = the largest weight with demands <= c (componentwise) among the items seen so far; take[i][c] records
  // whether item i is in that optimum, for the backtrack. Items without demand are always taken.
  std::vector<double> best(states, 0.0);
  std::vector<std::vector<bool>> take(items.size());
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const KnapsackItem& item = items[i];
    assert(item.demand.size() == d && std::isfinite(item.weight) && item.weight >= 0);
    const std::size_t offset = space.index_of(item.demand);
    if (offset == 0) continue;  // no demand
    take[i].assign(states, false);
    // Descending: best[c - demand] (a smaller index) still holds the optimum without item i.
    for (std::size_t c = states; c-- > offset;) {
      const int* have = coordinates.data() + c * d;
      bool fits = true;
      for (std::size_t r = 0; r < d && fits; ++r) fits = item.demand[r] <= have[r];
      if (!fits) continue;
      const double with = best[c - offset] + item.weight;
      if (with > best[c]) {
        best[c] = with;
        take[i][c] = true;
      }
    }
  }
  std::size_t c = states - 1;  // all capacities
  for (std::size_t i = items.size(); i-- > 0;) {
    if (take[i].empty()) {
      chosen.push_back(i);
    } else if (take[i][c]) {
      chosen.push_back(i);
      c -= space.index_of(items[i].demand);
    }
  }
  std::reverse(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace cosched::sched
