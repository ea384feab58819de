// The canonical allotments and the weight knapsack of seed 001 (Sec. 3.2), on d resources.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>

#include "cosched/common/error.hpp"
#include "cosched/sched/bicriteria.hpp"

namespace cosched::sched {

CanonicalAllotments::CanonicalAllotments(const Instance& instance) {
  fronts_.reserve(instance.task_count());
  fastest_.reserve(instance.task_count());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    fronts_.push_back(instance.tasks()[j].profile->front(instance.space()));
    const std::optional<AdmissibleAllocation> fastest = fronts_.back()->fastest();
    if (!fastest) {
      throw InputError("task \"" + instance.tasks()[j].id + "\"",
                       "cannot run with any allocation (every execution time is infinite)");
    }
    fastest_.push_back(*fastest);
  }
}

// The dynamic programme over every capacity vector c (best[c] = the largest weight with demands <= c among the
// items seen so far), item by item; take[i][c] records whether item i is in that optimum, for the backtrack.
// Capacity vectors are linearised with the FIRST resource fastest (the reverse of AllocationSpace), so the rows
// of the inner loop are the longest ones (65 cores rather than 9 chunks at d = 4); the linearisation changes no
// value of the programme, so the choice is the same under any order. Item i only changes the sub-box c >= d_i:
// exactly those states are visited, in descending linear order, so best[c - d_i] still holds the optimum without
// item i when it is read. Items without demand are always taken.
std::vector<std::size_t> max_weight_knapsack(const std::vector<KnapsackItem>& items,
                                             const std::vector<int>& capacities) {
  const std::size_t states = AllocationSpace(capacities).size();  // validates the capacities and bounds the table
  const std::size_t d = capacities.size();
  std::vector<std::size_t> stride(d);
  for (std::size_t r = 0, size = 1; r < d; size *= static_cast<std::size_t>(capacities[r]) + 1, ++r) stride[r] = size;
  const auto offset_of = [&](const std::vector<int>& demand) {
    std::size_t offset = 0;
    for (std::size_t r = 0; r < d; ++r) offset += static_cast<std::size_t>(demand[r]) * stride[r];
    return offset;
  };

  std::vector<double> best(states, 0.0);
  const std::size_t words = (states + 63) / 64;
  std::vector<std::uint64_t> take(items.size() * words, 0);
  std::vector<int> outer(d);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const KnapsackItem& item = items[i];
    assert(item.demand.size() == d && std::isfinite(item.weight) && item.weight >= 0);
    const std::size_t offset = offset_of(item.demand);
    if (offset == 0) continue;  // no demand
    std::uint64_t* taken = take.data() + i * words;
    const double weight = item.weight;
    const auto first = static_cast<std::size_t>(item.demand[0]);
    const auto last = static_cast<std::size_t>(capacities[0]);
    // Rows of the sub-box, outer coordinates from the capacities down to the demand (an odometer, resource 1
    // fastest).
    for (std::size_t r = 1; r < d; ++r) outer[r] = capacities[r];
    while (true) {
      std::size_t base = 0;
      for (std::size_t r = 1; r < d; ++r) base += static_cast<std::size_t>(outer[r]) * stride[r];
      double* row = best.data() + base;
      const double* without = row - offset;  // best[c - d_i] for c = base + k: c >= d_i componentwise here
      // Descending, so best[c - d_i] is read before item i can write it. Improvements are rare once the table
      // fills: the branch predicts well (measured faster than branch-free forms that pack the take bits).
      for (std::size_t k = last + 1; k-- > first;) {
        const double with = without[k] + weight;
        if (with > row[k]) {
          row[k] = with;
          taken[(base + k) / 64] |= std::uint64_t{1} << ((base + k) % 64);
        }
      }
      std::size_t r = 1;
      while (r < d && outer[r] == item.demand[r]) {
        outer[r] = capacities[r];
        ++r;
      }
      if (r == d) break;
      --outer[r];
    }
  }
  std::vector<std::size_t> chosen;
  std::size_t c = states - 1;  // all capacities
  for (std::size_t i = items.size(); i-- > 0;) {
    const std::size_t offset = offset_of(items[i].demand);
    if (offset == 0) {
      chosen.push_back(i);
    } else if ((take[i * words + c / 64] >> (c % 64)) & 1U) {
      chosen.push_back(i);
      c -= offset;
    }
  }
  std::reverse(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace cosched::sched
