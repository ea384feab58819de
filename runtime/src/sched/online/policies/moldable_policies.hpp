#pragma once
// Factories of the moldable online policies for the registry (src/sched/online/registry.cpp).
#include <memory>

#include "cosched/sched/online/policy.hpp"

namespace cosched::sched::online {

// DBOS with online factor options.rho; throws UsageError unless 1 <= rho <= kMaxOnlineFactor.
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_dbos(const OnlineOptions& options, const OnlineWorkload& workload);
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_iterative(const OnlineOptions& options,
                                                           const OnlineWorkload& workload);
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_improved_iterative(const OnlineOptions& options,
                                                                    const OnlineWorkload& workload);

}  // namespace cosched::sched::online
