// make_tier_backend and friends: name resolution ("auto"), budget wiring, and the list of names.
#include "cosched/platform/tier_backends.hpp"

#include <unistd.h>

#include <cerrno>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/platform/page_movers.hpp"
#include "cosched/platform/topology.hpp"
#include "platform/tiers/backend_registry.hpp"

namespace cosched::platform {

namespace {

constexpr std::string_view auto_name = "auto";

}  // namespace

std::string resolve_tier_backend_name(const TierOptions& options) {
  if (options.backend != auto_name) return std::string(tiers::tier_backend_entry(options.backend).info.name);
  for (const tiers::TierBackendEntry* entry : tiers::tier_backend_entries()) {
    if (entry->info.capabilities.has_fast_tier && entry->usable(options)) return std::string(entry->info.name);
  }
  // The emulated backend works on any machine, so this is an internal invariant, not a user error.
  throw RuntimeFailure("no tier backend usable on this machine");
}

std::string auto_tier_backend_name() { return resolve_tier_backend_name(TierOptions{}); }

std::string auto_tier_backend_name(const Topology& topology) {
  if (topology.is_this_system()) return auto_tier_backend_name();
  for (const tiers::TierBackendEntry* entry : tiers::tier_backend_entries()) {
    if (entry->info.capabilities.has_fast_tier && entry->usable_on(topology)) return std::string(entry->info.name);
  }
  throw RuntimeFailure("no tier backend usable on the saved machine");  // emulated always is: an invariant
}

const TierBackendInfo& resolved_tier_backend_info(std::string_view name) {
  TierOptions options;
  options.backend = std::string(name);
  return tier_backend_info(resolve_tier_backend_name(options));
}

std::size_t fast_tier_capacity_bytes(const TierOptions& options) {
  return tiers::tier_backend_entry(resolve_tier_backend_name(options)).fast_capacity_bytes(options);
}

std::shared_ptr<FastTierBudget> make_fast_tier_budget(const TierOptions& options) {
  const std::string name = resolve_tier_backend_name(options);
  const std::size_t capacity = tiers::tier_backend_entry(name).fast_capacity_bytes(options);
  if (capacity == 0) throw ResourceError("tier backend \"" + name + "\" has no fast tier to budget");
  return std::make_shared<FastTierBudget>(capacity, options.budget_chunks);
}

std::unique_ptr<TierBackend> make_tier_backend(const TierOptions& options) {
  const tiers::TierBackendEntry& entry = tiers::tier_backend_entry(resolve_tier_backend_name(options));
  const std::size_t capacity = entry.fast_capacity_bytes(options);
  std::shared_ptr<FastTierBudget> budget = options.budget;
  if (budget && budget->capacity_bytes() > capacity) {
    // A budget larger than the tier would let the scheduler hand out memory that is not there.
    throw UsageError("fast-tier budget of " + std::to_string(budget->capacity_bytes()) +
                     " bytes exceeds the " + std::to_string(capacity) + " bytes of tier backend \"" +
                     std::string(entry.info.name) + "\"");
  }
  if (!budget && capacity > 0) budget = std::make_shared<FastTierBudget>(capacity, options.budget_chunks);
  if (entry.info.capabilities.has_fast_tier && !entry.info.capabilities.emulated) {
    // A real tier's point is placement: refused where something moves bound pages (page_movers.hpp).
    check_placement_holds(detect_page_movers(), "tier backend \"" + std::string(entry.info.name) + "\"");
  }
  return entry.make(options, std::move(budget));
}

std::vector<std::string> tier_backend_names() {
  std::vector<std::string> names{std::string(auto_name)};
  for (const tiers::TierBackendEntry* entry : tiers::tier_backend_entries()) names.emplace_back(entry->info.name);
  return names;
}

std::size_t default_emulated_fast_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  if (pages <= 0) throw PlatformError("sysconf(_SC_PHYS_PAGES)", "physical memory size unknown", errno);
  return static_cast<std::size_t>(pages) * page_bytes() / 7;
}

}  // namespace cosched::platform
