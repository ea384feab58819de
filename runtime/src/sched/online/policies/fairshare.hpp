#pragma once
// The `fairshare` policy's maker, for the registry.
#include <memory>

#include "sched/online/policies/policies.hpp"

namespace cosched::sched::online::policies {

[[nodiscard]] std::unique_ptr<OnlinePolicy> make_fairshare(SharedJobs jobs);

}  // namespace cosched::sched::online::policies
