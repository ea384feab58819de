#include "platform/tiers/backend_registry.hpp"

#include <array>
#include <string>

#include "cosched/common/error.hpp"

namespace cosched::platform::tiers {

std::span<const TierBackendEntry* const> tier_backend_entries() {
  // Order matters: "auto" takes the first usable entry after "none" (real tiers before emulation). numa comes
  // before memkind: where the topology names fast nodes (hwloc subtype, HMAT bandwidth, or the vote of signs),
  // numa binds both parts to the classified nodes, whereas memkind's slow kind is "the nodes with CPUs" and its
  // own HBW detection misses fast nodes below 200 GB/s; memkind is kept for what only memkind sees
  // (MEMKIND_HBW_NODES, a Xeon Phi hwloc did not label). docs/memory-tiers.md, "Automatic choice".
  static const std::array<const TierBackendEntry*, 4> entries{
      &none_backend_entry(), &numa_backend_entry(), &memkind_backend_entry(), &emulated_backend_entry()};
  return entries;
}

void check_fast_count(std::size_t count, std::size_t fast_count) {
  if (fast_count > count) {
    throw UsageError("fast element count " + std::to_string(fast_count) + " exceeds the array of " +
                     std::to_string(count) + " elements");
  }
}

const TierBackendEntry& tier_backend_entry(std::string_view name) {
  std::string known;
  for (const TierBackendEntry* entry : tier_backend_entries()) {
    if (entry->info.name == name) return *entry;
    known += ", ";
    known += entry->info.name;
  }
  throw UsageError("unknown tier backend \"" + std::string(name) + "\" (known: auto" + known + ")");
}

}  // namespace cosched::platform::tiers

namespace cosched::platform {

const TierBackendInfo& tier_backend_info(std::string_view name) { return tiers::tier_backend_entry(name).info; }

}  // namespace cosched::platform
