#pragma once
// The pieces backends compose their child_placement from (backend_registry.hpp): how a stream_bench child or an
// arbitrary command gets its share of the fast tier. stream_bench places its arrays itself (--fast-fraction,
// --tier-backend); a command can only be steered by a NUMA memory policy set before exec.
#include <string>
#include <string_view>
#include <vector>

#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform::tiers {

// The fast bytes a child of `request` gets on a backend with a fast tier: the granted bytes, capped at a
// stream_bench task's footprint (it cannot place more than its arrays).
[[nodiscard]] std::size_t placed_fast_bytes(const ChildPlacementRequest& request);

// No fast tier: no share, no policy, no stream_bench flags (its memory goes where the OS puts it).
[[nodiscard]] ChildPlacement system_placement(const ChildPlacementRequest& request);

// stream_bench places its share itself: --fast-fraction F --tier-backend <backend> plus `extra_args`.
[[nodiscard]] ChildPlacement stream_bench_placement(std::string_view backend, const ChildPlacementRequest& request,
                                                    std::vector<std::string> extra_args, std::string_view note);

// A command on a real tier: the request's command placement mechanism (command_placement.hpp; by default no fast
// share -> MPOL_BIND to the slow nodes, a share -> MPOL_PREFERRED on the first fast node). Throws ResourceError
// without fast and slow nodes.
[[nodiscard]] ChildPlacement numa_policy_placement(std::string_view backend, const ChildPlacementRequest& request);

}  // namespace cosched::platform::tiers
