#pragma once
// The `fairshare` policy's maker, for the registry.
#include <memory>

#include "online/policies/policies.hpp"

namespace cosched::online::policies {

[[nodiscard]] std::unique_ptr<OnlinePolicy> make_fairshare(SharedJobs jobs);

}  // namespace cosched::online::policies
