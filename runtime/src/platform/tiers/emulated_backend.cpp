// "emulated": one NUMA node plays both tiers. Fast and slow bytes are the same DRAM; the slow tier is made
// `emulation_ratio` times slower by the kernels, which stream the slow part that many times (TierCostModel).
// That costs real memory bandwidth, so co-running tasks contend as they would for DDR on a real node. The fast
// tier's capacity is a configured number (TierOptions::emulated_fast_bytes). See docs/emulation.md.
#include <cmath>
#include <string>

#include "cosched/common/error.hpp"
#include "platform/tiers/backend_registry.hpp"
#include "platform/tiers/page_mapping.hpp"

namespace cosched::platform::tiers {

namespace {

struct EmulatedOwner final : TieredArray::Releaser {
  EmulatedOwner(PageMapping owned, FastTierReservation held)
      : mapping(std::move(owned)), reservation(std::move(held)) {}
  PageMapping mapping;
  FastTierReservation reservation;
};

class EmulatedBackend final : public TierBackend {
 public:
  EmulatedBackend(double ratio, std::shared_ptr<FastTierBudget> budget) : ratio_(ratio), budget_(std::move(budget)) {}

  [[nodiscard]] std::string_view name() const override { return "emulated"; }
  [[nodiscard]] TierCostModel cost_model() const override { return {.slow_pass_factor = ratio_, .emulated = true}; }

  [[nodiscard]] TieredArray allocate(std::size_t count, std::size_t fast_count) override {
    check_fast_count(count, fast_count);
    // Reserve before mapping: a refused reservation then costs nothing.
    FastTierReservation reservation(budget_, fast_count * sizeof(double));
    PageMapping mapping(count * sizeof(double));
    auto* base = static_cast<double*>(mapping.data());
    TieredSpan span;
    span.fast_count = fast_count;
    span.slow_count = count - fast_count;
    span.fast = fast_count > 0 ? base : nullptr;
    span.slow = span.slow_count > 0 ? base + fast_count : nullptr;
    return {span, std::make_unique<EmulatedOwner>(std::move(mapping), std::move(reservation))};
  }

 private:
  double ratio_;
  std::shared_ptr<FastTierBudget> budget_;
};

void validate_ratio(double ratio) {
  if (!(std::isfinite(ratio) && ratio >= 1.0)) {
    throw UsageError("emulation ratio must be a finite number >= 1 (slow:fast bandwidth), got " +
                     std::to_string(ratio));
  }
}

}  // namespace

const TierBackendEntry& emulated_backend_entry() {
  static const TierBackendEntry entry{
      .name = "emulated",
      .usable = [](const TierOptions&) { return true; },
      .fast_capacity_bytes = [](const TierOptions& options) -> std::size_t {
        return options.emulated_fast_bytes != 0 ? options.emulated_fast_bytes : default_emulated_fast_bytes();
      },
      .make = [](const TierOptions& options, std::shared_ptr<FastTierBudget> budget) -> std::unique_ptr<TierBackend> {
        validate_ratio(options.emulation_ratio);
        return std::make_unique<EmulatedBackend>(options.emulation_ratio, std::move(budget));
      },
  };
  return entry;
}

}  // namespace cosched::platform::tiers
