// "none": no tiering. Every byte goes where the OS puts it (first touch); there is no fast tier, so asking for
// fast elements is a ResourceError. stream_bench uses it when no --fast-fraction is given.
#include <string>

#include "cosched/common/error.hpp"
#include "platform/tiers/backend_registry.hpp"
#include "platform/tiers/child_placement.hpp"
#include "platform/tiers/page_mapping.hpp"

namespace cosched::platform::tiers {

namespace {

struct MappingOwner final : TieredArray::Releaser {
  explicit MappingOwner(PageMapping owned) : mapping(std::move(owned)) {}
  PageMapping mapping;
};

class NoneBackend final : public TierBackend {
 public:
  [[nodiscard]] std::string_view name() const override { return "none"; }
  [[nodiscard]] TierCostModel cost_model() const override { return {}; }

  [[nodiscard]] TieredArray allocate(std::size_t count, std::size_t fast_count) override {
    if (fast_count > 0) {
      throw ResourceError("tier backend \"none\" has no fast tier: cannot place " + std::to_string(fast_count) +
                          " of " + std::to_string(count) + " elements in fast memory");
    }
    auto owner = std::make_unique<MappingOwner>(PageMapping(count * sizeof(double)));
    TieredSpan span;
    span.slow = static_cast<double*>(owner->mapping.data());
    span.slow_count = count;
    return {span, std::move(owner)};
  }
};

}  // namespace

const TierBackendEntry& none_backend_entry() {
  static const TierBackendEntry entry{
      .info = {.name = "none",
               .capabilities = {.has_fast_tier = false, .emulated = false, .places_commands = false},
               .child_placement = system_placement},
      .usable = [](const TierOptions&) { return true; },
      .usable_on = [](const Topology&) { return true; },
      .fast_capacity_bytes = [](const TierOptions&) -> std::size_t { return 0; },
      .make = [](const TierOptions&, std::shared_ptr<FastTierBudget>) -> std::unique_ptr<TierBackend> {
        return std::make_unique<NoneBackend>();
      },
  };
  return entry;
}

}  // namespace cosched::platform::tiers
