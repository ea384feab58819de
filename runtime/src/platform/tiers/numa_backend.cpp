// "numa": one mapped range; the fast pages are mbind()-ed to the fast node(s), the rest to the slow node(s),
// both MPOL_BIND so that a full node is an allocation failure rather than a silent spill into the other tier.
// For HBM nodes memkind does not recognise, or a two-socket machine used as near/far memory.
#include <numa.h>
#include <numaif.h>

#include <cerrno>
#include <memory>
#include <string>

#include "cosched/common/error.hpp"
#include "platform/tiers/backend_registry.hpp"
#include "platform/tiers/child_placement.hpp"
#include "platform/tiers/numa_nodes.hpp"
#include "platform/tiers/page_mapping.hpp"

namespace cosched::platform::tiers {

namespace {

using NodeMask = std::unique_ptr<bitmask, decltype(&numa_bitmask_free)>;

NodeMask to_node_mask(const std::vector<unsigned>& nodes) {
  NodeMask mask(numa_allocate_nodemask(), &numa_bitmask_free);
  for (unsigned node : nodes) numa_bitmask_setbit(mask.get(), node);
  return mask;
}

std::string describe(const std::vector<unsigned>& nodes) {
  std::string text;
  for (unsigned node : nodes) {
    if (!text.empty()) text += ',';
    text += std::to_string(node);
  }
  return "{" + text + "}";
}

void bind_range(void* start, std::size_t bytes, const bitmask& mask, const std::vector<unsigned>& nodes,
                const char* tier) {
  if (bytes == 0) return;
  // maxnode = bits + 1: the kernel reads one bit fewer than it is told (libnuma passes size + 1 likewise).
  // MPOL_MF_STRICT: fail if a page of the range already sits elsewhere (none should: nothing is touched yet).
  if (mbind(start, bytes, MPOL_BIND, mask.maskp, mask.size + 1, MPOL_MF_STRICT) != 0) {
    throw PlatformError("mbind", std::string("binding ") + std::to_string(bytes) + " bytes of the " + tier +
                                     " tier to NUMA nodes " + describe(nodes), errno);
  }
}

struct NumaOwner final : TieredArray::Releaser {
  NumaOwner(FastTierReservation held, PageMapping owned) : reservation(std::move(held)), mapping(std::move(owned)) {}
  FastTierReservation reservation;  // declared first: returned to the budget after the pages are unmapped
  PageMapping mapping;
};

class NumaBackend final : public TierBackend {
 public:
  NumaBackend(TierNodes nodes, std::shared_ptr<FastTierBudget> budget)
      : nodes_(std::move(nodes)),
        fast_mask_(to_node_mask(nodes_.fast)),
        slow_mask_(to_node_mask(nodes_.slow)),
        budget_(std::move(budget)) {}

  [[nodiscard]] std::string_view name() const override { return "numa"; }
  [[nodiscard]] TierCostModel cost_model() const override { return {}; }

  [[nodiscard]] TieredArray allocate(std::size_t count, std::size_t fast_count) override {
    check_fast_count(count, fast_count);
    // mbind works on whole pages. fast_element_count puts the boundary on one; for any other count the page
    // holding the boundary goes fast (the placement must never give a fast element slow memory), and the
    // budget is charged for the whole page.
    const std::size_t page = page_bytes();
    const std::size_t fast_bytes = (fast_count * sizeof(double) + page - 1) / page * page;
    FastTierReservation reservation(budget_, fast_bytes);
    PageMapping mapping(count * sizeof(double));
    auto* base = static_cast<double*>(mapping.data());
    bind_range(base, fast_bytes, *fast_mask_, nodes_.fast, "fast");
    bind_range(reinterpret_cast<char*>(base) + fast_bytes, mapping.bytes() - fast_bytes, *slow_mask_,
               nodes_.slow, "slow");
    TieredSpan span;
    span.fast_count = fast_count;
    span.slow_count = count - fast_count;
    span.fast = fast_count > 0 ? base : nullptr;
    span.slow = span.slow_count > 0 ? base + fast_count : nullptr;
    return {span, std::make_unique<NumaOwner>(std::move(reservation), std::move(mapping))};
  }

 private:
  TierNodes nodes_;
  NodeMask fast_mask_;
  NodeMask slow_mask_;
  std::shared_ptr<FastTierBudget> budget_;
};

std::size_t fast_nodes_bytes(const TierOptions& options) {
  std::size_t total = 0;
  for (unsigned node : numa_tier_nodes(options).fast) {
    total += static_cast<std::size_t>(numa_node_size64(static_cast<int>(node), nullptr));
  }
  return total;
}

}  // namespace

const TierBackendEntry& numa_backend_entry() {
  static const TierBackendEntry entry{
      .info = {.name = "numa",
               .capabilities = {.has_fast_tier = true, .emulated = false, .places_commands = true},
               .child_placement =
                   [](const ChildPlacementRequest& request) {
                     return request.program == ChildProgram::stream_bench
                                ? stream_bench_placement("numa", request, {}, "")
                                : numa_policy_placement("numa", request);
                   }},
      .usable =
          [](const TierOptions& options) {
            try {
              return !numa_tier_nodes(options).fast.empty();
            } catch (const Error&) {
              return false;
            }
          },
      .usable_on = [](const Topology& topology) { return topology.has_fast_tier(); },
      .fast_capacity_bytes = fast_nodes_bytes,
      .make = [](const TierOptions& options, std::shared_ptr<FastTierBudget> budget) -> std::unique_ptr<TierBackend> {
        return std::make_unique<NumaBackend>(numa_tier_nodes(options), std::move(budget));
      },
  };
  return entry;
}

}  // namespace cosched::platform::tiers
