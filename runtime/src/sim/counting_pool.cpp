#include "sim/counting_pool.hpp"

#include <fmt/format.h>

#include <cassert>

#include "cosched/common/error.hpp"

namespace cosched::sim {

platform::Grant CountingPool::acquire(std::span<const int> demand) {
  if (demand.size() != capacities_.size()) {
    throw UsageError(fmt::format("demand has {} entries for {} resource types", demand.size(), capacities_.size()));
  }
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (demand[i] < 0 || demand[i] > free_[i]) {
      throw ResourceError(fmt::format("{} of resource {} requested, {} free of {}", demand[i], i, free_[i],
                                      capacities_[i]));
    }
  }
  for (std::size_t i = 0; i < demand.size(); ++i) free_[i] -= demand[i];
  platform::Grant grant;
  grant.amounts.assign(demand.begin(), demand.end());
  return grant;
}

void CountingPool::release(const platform::Grant& grant) {
  assert(grant.amounts.size() == capacities_.size());
  for (std::size_t i = 0; i < grant.amounts.size(); ++i) {
    free_[i] += grant.amounts[i];
    assert(free_[i] <= capacities_[i]);
  }
}

}  // namespace cosched::sim
