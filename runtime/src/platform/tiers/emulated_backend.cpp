// "emulated": one NUMA node plays both tiers. Fast and slow bytes are the same DRAM; the slow tier is made
// `emulation_ratio` times slower by the kernels, which stream the slow part that many times (TierCostModel).
// That costs real memory bandwidth, so co-running tasks contend as they would for DDR on a real node. The fast
// tier's capacity is a configured number (TierOptions::emulated_fast_bytes). See docs/emulation.md.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "cosched/common/error.hpp"
#include "platform/tiers/backend_registry.hpp"
#include "platform/tiers/child_placement.hpp"
#include "platform/tiers/page_mapping.hpp"

namespace cosched::platform::tiers {

namespace {

struct EmulatedOwner final : TieredArray::Releaser {
  EmulatedOwner(const void* issuer_backend, PageMapping owned, FastTierReservation held)
      : issuer(issuer_backend), mapping(std::move(owned)), reservation(std::move(held)) {}
  const void* issuer;  // the backend that allocated it: only that one may move its split (its budget holds it)
  PageMapping mapping;
  FastTierReservation reservation;
};

// Both tiers are one mapping, so the split is only where the span says the fast part ends.
TieredSpan split_span(double* base, std::size_t count, std::size_t fast_count) noexcept {
  TieredSpan span;
  span.fast_count = fast_count;
  span.slow_count = count - fast_count;
  span.fast = fast_count > 0 ? base : nullptr;
  span.slow = span.slow_count > 0 ? base + fast_count : nullptr;
  return span;
}

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
    const TieredSpan span = split_span(static_cast<double*>(mapping.data()), count, fast_count);
    return {span, std::make_unique<EmulatedOwner>(this, std::move(mapping), std::move(reservation))};
  }

  // The split is logical, so moving it moves no data: only the budget's accounting changes.
  [[nodiscard]] bool resplit(TieredArray& array, std::size_t fast_count) override {
    auto* owner = dynamic_cast<EmulatedOwner*>(array.releaser());
    if (owner == nullptr || owner->issuer != this) return false;
    const std::size_t count = array.span().count();
    check_fast_count(count, fast_count);
    owner->reservation.resize(fast_count * sizeof(double));  // throws ResourceError before anything changes
    array.set_span(split_span(static_cast<double*>(owner->mapping.data()), count, fast_count));
    return true;
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

// stream_bench re-streams its slow part (--emulation-ratio); an arbitrary program cannot be slowed that way, so
// a command is only told its share ({fast_bytes}).
ChildPlacement emulated_child_placement(const ChildPlacementRequest& request) {
  if (request.program == ChildProgram::stream_bench) {
    return stream_bench_placement("emulated", request, {"--emulation-ratio", fmt::format("{}", request.emulation_ratio)},
                                  " (EMULATED fast tier)");
  }
  ChildPlacement placement;
  placement.fast_bytes = placed_fast_bytes(request);
  placement.description = fmt::format("not applied: the emulated tier cannot slow an arbitrary program; it is told "
                                      "{{fast_bytes}}={}",
                                      placement.fast_bytes);
  return placement;
}

}  // namespace

const TierBackendEntry& emulated_backend_entry() {
  static const TierBackendEntry entry{
      .info = {.name = "emulated",
               .capabilities = {.has_fast_tier = true, .emulated = true, .places_commands = false},
               .child_placement = emulated_child_placement},
      .usable = [](const TierOptions&) { return true; },
      .usable_on = [](const Topology&) { return true; },
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
