#include "platform/tiers/child_placement.hpp"

#include <numaif.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cosched/common/error.hpp"
#include "cosched/platform/command_placement.hpp"

namespace cosched::platform::tiers {

std::size_t placed_fast_bytes(const ChildPlacementRequest& request) {
  if (request.program == ChildProgram::stream_bench) {
    return static_cast<std::size_t>(std::min<std::uint64_t>(request.granted_fast_bytes, request.footprint_bytes));
  }
  return request.granted_fast_bytes;
}

ChildPlacement system_placement(const ChildPlacementRequest& request) {
  ChildPlacement placement;
  placement.description = request.program == ChildProgram::stream_bench
                              ? "tier left to the system (stream_bench --tier-backend none)"
                              : "tier left to the system (no memory policy)";
  return placement;
}

ChildPlacement stream_bench_placement(std::string_view backend, const ChildPlacementRequest& request,
                                      std::vector<std::string> extra_args, std::string_view note) {
  ChildPlacement placement;
  placement.fast_bytes = placed_fast_bytes(request);
  const double fraction =
      request.footprint_bytes > 0
          ? std::min(1.0, static_cast<double>(placement.fast_bytes) / static_cast<double>(request.footprint_bytes))
          : 0.0;
  placement.stream_bench_args = {"--fast-fraction", fmt::format("{}", fraction), "--tier-backend",
                                 std::string(backend)};
  placement.stream_bench_args.insert(placement.stream_bench_args.end(), extra_args.begin(), extra_args.end());
  placement.description = fmt::format("stream_bench --tier-backend {}{}", backend, note);
  return placement;
}

ChildPlacement numa_policy_placement(std::string_view backend, const ChildPlacementRequest& request) {
  if (request.nodes.fast.empty() || request.nodes.slow.empty()) {
    throw ResourceError(fmt::format("backend {} without fast and slow NUMA nodes cannot place a command", backend));
  }
  // The mechanism (preferred by default) decides; command_placement.hpp lists them.
  return command_placement_mechanism(request.command_placement).place(request);
}

}  // namespace cosched::platform::tiers
