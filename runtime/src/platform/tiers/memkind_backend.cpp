// "memkind": the fast part from MEMKIND_HBW, the slow part from regular memory, as two allocations.
//
// Strict on purpose: MEMKIND_HBW binds (MPOL_BIND) to the nearest HBW node and returns NULL when it cannot;
// hbw_malloc and MEMKIND_HBW_PREFERRED would silently fall back to DDR, which would make a fast-fraction sweep
// measure nothing. memkind does not track HBW capacity (an over-sized bind may be OOM-killed at page-fault time
// instead of failing), so fast bytes are reserved on a FastTierBudget first.
//
// Slow part: MEMKIND_REGULAR is "the NUMA nodes that have CPUs" (memkind_regular.c), which is DDR on KNL and
// Xeon Max, where HBW nodes are CPU-less. On this one-node VM with MEMKIND_HBW_NODES=0 node 0 is both HBW and
// the only CPU node, so REGULAR binds to node 0 too — the same DRAM, which is the best a one-node machine has.
// Should REGULAR be unavailable (no CPU node has memory), MEMKIND_DEFAULT — the process policy — takes the slow
// part rather than failing, since any non-HBW placement is a correct slow tier.
#include <hbwmalloc.h>
#include <memkind.h>

#include <string>
#include <utility>

#include "cosched/common/error.hpp"
#include "platform/tiers/backend_registry.hpp"
#include "platform/tiers/child_placement.hpp"
#include "platform/tiers/page_mapping.hpp"

namespace cosched::platform::tiers {

namespace {

// One memkind allocation, freed with its kind.
class KindBlock {
 public:
  KindBlock() = default;
  KindBlock(memkind_t kind, std::size_t bytes, const char* kind_name) : kind_(kind) {
    if (bytes == 0) return;
    void* memory = nullptr;
    // 2 MiB alignment: jemalloc then serves the block from its own huge extent, so it shares no page with
    // another allocation and its pages are untouched until the kernel's first touch.
    const int status = memkind_posix_memalign(kind, &memory, huge_page_bytes, bytes);
    if (status != 0 || memory == nullptr) {
      throw ResourceError(std::string("memkind could not allocate ") + std::to_string(bytes) + " bytes from " +
                          kind_name + " (memkind_posix_memalign returned " + std::to_string(status) + ")");
    }
    memory_ = memory;
  }
  KindBlock(KindBlock&& other) noexcept
      : kind_(other.kind_), memory_(std::exchange(other.memory_, nullptr)) {}
  KindBlock& operator=(KindBlock&&) = delete;
  KindBlock(const KindBlock&) = delete;
  KindBlock& operator=(const KindBlock&) = delete;
  ~KindBlock() {
    if (memory_ != nullptr) memkind_free(kind_, memory_);
  }
  [[nodiscard]] double* data() const noexcept { return static_cast<double*>(memory_); }

 private:
  memkind_t kind_ = nullptr;
  void* memory_ = nullptr;
};

struct MemkindOwner final : TieredArray::Releaser {
  MemkindOwner(FastTierReservation held, KindBlock fast_block, KindBlock slow_block)
      : reservation(std::move(held)), fast(std::move(fast_block)), slow(std::move(slow_block)) {}
  FastTierReservation reservation;  // declared first: returned to the budget after the memory is freed
  KindBlock fast;
  KindBlock slow;
};

bool hbw_nodes_found() noexcept { return hbw_check_available() == 0; }

class MemkindBackend final : public TierBackend {
 public:
  explicit MemkindBackend(std::shared_ptr<FastTierBudget> budget) : budget_(std::move(budget)) {
    const bool regular_usable = memkind_check_available(MEMKIND_REGULAR) == 0;
    slow_kind_ = regular_usable ? MEMKIND_REGULAR : MEMKIND_DEFAULT;
    slow_kind_name_ = regular_usable ? "MEMKIND_REGULAR" : "MEMKIND_DEFAULT";
  }

  [[nodiscard]] std::string_view name() const override { return "memkind"; }
  [[nodiscard]] TierCostModel cost_model() const override { return {}; }

  [[nodiscard]] TieredArray allocate(std::size_t count, std::size_t fast_count) override {
    check_fast_count(count, fast_count);
    FastTierReservation reservation(budget_, fast_count * sizeof(double));
    KindBlock fast(MEMKIND_HBW, fast_count * sizeof(double), "MEMKIND_HBW");
    KindBlock slow(slow_kind_, (count - fast_count) * sizeof(double), slow_kind_name_);
    TieredSpan span;
    span.fast = fast.data();
    span.slow = slow.data();
    span.fast_count = fast_count;
    span.slow_count = count - fast_count;
    return {span, std::make_unique<MemkindOwner>(std::move(reservation), std::move(fast), std::move(slow))};
  }

 private:
  std::shared_ptr<FastTierBudget> budget_;
  memkind_t slow_kind_ = nullptr;
  const char* slow_kind_name_ = "";
};

std::size_t hbw_capacity_bytes(const TierOptions&) {
  if (!hbw_nodes_found()) {
    throw ResourceError(
        "tier backend \"memkind\": memkind finds no high-bandwidth memory on this machine (hbw_check_available "
        "failed); on a machine without HBM set MEMKIND_HBW_NODES to a node list to emulate it, or use "
        "--tier-backend emulated");
  }
  // Sum of the HBW nodes' sizes as libnuma reports them (memkind_get_capacity on a NUMA kind).
  const ssize_t capacity = memkind_get_capacity(MEMKIND_HBW);
  if (capacity <= 0) throw PlatformError("memkind_get_capacity(MEMKIND_HBW)", "no capacity reported");
  return static_cast<std::size_t>(capacity);
}

// memkind 1.14 finds HBW nodes on a Xeon Phi (family 6, model 0x57 KNL / 0x85 KNM) by their being CPU-less, and
// elsewhere by HMAT bandwidth at or above MEMKIND_HBW_THRESHOLD (default 204800 MiB/s): the rule applied to a saved
// machine's topology, where memkind itself cannot be asked.
bool would_find_hbw_nodes(const Topology& topology) {
  const auto& facts = topology.facts();
  const bool xeon_phi = facts.cpu_family == 6 && (facts.cpu_model_number == 0x57 || facts.cpu_model_number == 0x85);
  if (xeon_phi) return true;
  constexpr std::uint64_t memkind_hbw_threshold_mib_s = 204800;
  for (const auto& node : facts.numa_nodes) {
    if (node.bandwidth_mib_s && *node.bandwidth_mib_s >= memkind_hbw_threshold_mib_s) return true;
  }
  return false;
}

}  // namespace

const TierBackendEntry& memkind_backend_entry() {
  static const TierBackendEntry entry{
      .info = {.name = "memkind",
               .capabilities = {.has_fast_tier = true, .emulated = false, .places_commands = true},
               .child_placement =
                   [](const ChildPlacementRequest& request) {
                     return request.program == ChildProgram::stream_bench
                                ? stream_bench_placement("memkind", request, {}, "")
                                : numa_policy_placement("memkind", request);
                   }},
      .usable = [](const TierOptions&) { return hbw_nodes_found(); },
      .usable_on = would_find_hbw_nodes,
      .fast_capacity_bytes = hbw_capacity_bytes,
      .make = [](const TierOptions&, std::shared_ptr<FastTierBudget> budget) -> std::unique_ptr<TierBackend> {
        return std::make_unique<MemkindBackend>(std::move(budget));
      },
  };
  return entry;
}

}  // namespace cosched::platform::tiers
