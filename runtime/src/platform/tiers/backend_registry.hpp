#pragma once
// The table of tier backends. Each backend lives in its own file and exposes one entry; backend_registry.cpp
// lists them. The list is explicit rather than self-registering because cosched_platform is a static library:
// the linker drops an object file nobody references, and a self-registration inside it with it.
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "cosched/platform/fast_tier_budget.hpp"
#include "cosched/platform/memory_tier.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"

namespace cosched::platform::tiers {

struct TierBackendEntry {
  // The public face: name, capabilities, and how a child process gets its fast share (tier_backends.hpp).
  TierBackendInfo info;
  // True when the backend can work on this machine with these options (used by "auto"; must not throw).
  bool (*usable)(const TierOptions& options) = nullptr;
  // The same test answered for a saved machine (an hwloc XML topology), where the backend cannot run: whether
  // "auto" would pick it there (`cosched topo --topology-xml`). Must not throw.
  bool (*usable_on)(const Topology& topology) = nullptr;
  // Bytes of the fast tier; throws ResourceError when the backend cannot work here. 0 = no fast tier.
  std::size_t (*fast_capacity_bytes)(const TierOptions& options) = nullptr;
  // Builds the backend; `budget` is null only when the backend has no fast tier.
  std::unique_ptr<TierBackend> (*make)(const TierOptions& options, std::shared_ptr<FastTierBudget> budget) =
      nullptr;
};

const TierBackendEntry& none_backend_entry();
const TierBackendEntry& memkind_backend_entry();
const TierBackendEntry& numa_backend_entry();
const TierBackendEntry& emulated_backend_entry();

// Throws UsageError when fast_count > count (a caller bug every backend must refuse the same way).
void check_fast_count(std::size_t count, std::size_t fast_count);

// All backends, in the order "auto" tries them (none is never chosen by auto).
std::span<const TierBackendEntry* const> tier_backend_entries();

// The entry named `name` (not "auto"); throws UsageError listing the valid names.
const TierBackendEntry& tier_backend_entry(std::string_view name);

}  // namespace cosched::platform::tiers
