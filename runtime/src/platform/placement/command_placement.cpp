#include "cosched/platform/command_placement.hpp"

#include <numaif.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include "cosched/common/error.hpp"
#include "cosched/platform/mempolicy.hpp"

namespace cosched::platform {

namespace {

using PlaceFastShare = ChildPlacement (*)(const ChildPlacementRequest& request);

// What every mechanism but none shares: it needs both tiers, and with no fast share granted the command may not take
// fast memory (bound to the slow nodes); otherwise `Place` places the share.
template <PlaceFastShare Place>
ChildPlacement with_fast_share(const ChildPlacementRequest& request) {
  if (request.nodes.fast.empty() || request.nodes.slow.empty()) {
    throw ResourceError(
        fmt::format("placement {} needs fast and slow NUMA nodes to place a command", request.command_placement));
  }
  if (request.granted_fast_bytes > 0) return Place(request);
  ChildPlacement placement;
  placement.memory = {MPOL_BIND, request.nodes.slow};
  placement.applied_fraction = 0.0;
  placement.description = fmt::format("set_mempolicy(MPOL_BIND, slow nodes {})", fmt::join(request.nodes.slow, ","));
  return placement;
}

ChildPlacement place_none(const ChildPlacementRequest& /*request*/) {
  ChildPlacement placement;
  placement.description = "no memory policy: the system places the command's pages (no fast share applied)";
  return placement;
}

ChildPlacement place_preferred(const ChildPlacementRequest& request) {
  ChildPlacement placement;
  placement.fast_bytes = request.granted_fast_bytes;
  placement.memory = {MPOL_PREFERRED, {request.nodes.fast.front()}};
  // A preferred policy cannot cap the process at its share: the pages it touches first go to the fast node.
  placement.description = fmt::format("set_mempolicy(MPOL_PREFERRED, fast node {}): up to its {} fast bytes only if "
                                      "it honours {{fast_bytes}} (no fraction held)",
                                      request.nodes.fast.front(), placement.fast_bytes);
  return placement;
}

ChildPlacement place_bind(const ChildPlacementRequest& request) {
  ChildPlacement placement;
  placement.fast_bytes = request.granted_fast_bytes;
  placement.memory = {MPOL_BIND, request.nodes.fast};
  placement.applied_fraction = 1.0;
  placement.description = fmt::format("set_mempolicy(MPOL_BIND, fast nodes {}): all its pages in the fast tier "
                                      "(granted {} bytes; allocation fails beyond the nodes)",
                                      fmt::join(request.nodes.fast, ","), placement.fast_bytes);
  return placement;
}

ChildPlacement place_weighted_interleave(const ChildPlacementRequest& request) {
  if (request.command_footprint_bytes == 0) {
    throw UsageError("placement weighted-interleave needs the command's footprint (footprint_mib) to turn its fast "
                     "bytes into a fraction");
  }
  const double wanted = std::min(1.0, static_cast<double>(request.granted_fast_bytes) /
                                          static_cast<double>(request.command_footprint_bytes));
  if (wanted >= 1.0) {
    ChildPlacement placement = place_bind(request);
    placement.description += " (the grant covers the footprint)";
    return placement;
  }
  if (!weighted_interleave_available()) {
    throw ResourceError(fmt::format("placement weighted-interleave: this kernel has no weighted interleave ({} is "
                                    "missing; Linux >= 6.9)",
                                    weighted_interleave_dir().string()));
  }
  const WeightedSplit split = weights_for_fraction(wanted, request.nodes.fast, request.nodes.slow);
  ChildPlacement placement;
  placement.fast_bytes = request.granted_fast_bytes;
  std::vector<unsigned> nodes = request.nodes.fast;
  nodes.insert(nodes.end(), request.nodes.slow.begin(), request.nodes.slow.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  placement.memory = {kMpolWeightedInterleave, nodes};
  placement.interleave_weights = split.weights;
  placement.applied_fraction = split.applied_fraction;
  placement.description =
      fmt::format("set_mempolicy(MPOL_WEIGHTED_INTERLEAVE, nodes {}) with system-wide weights {}: fast fraction {:.4f} "
                  "applied for {:.4f} wanted (weights are shared by the whole machine)",
                  fmt::join(nodes, ","), split.weights, split.applied_fraction, wanted);
  return placement;
}

ChildPlacement place_autohbw(const ChildPlacementRequest& request) {
  const auto library = find_autohbw_library(request.autohbw_library);
  const std::size_t threshold_kib = std::max<std::size_t>(1, request.autohbw_threshold_bytes / 1024);
  ChildPlacement placement;
  placement.fast_bytes = request.granted_fast_bytes;
  placement.environment = {"LD_PRELOAD=" + library.string(), fmt::format("AUTO_HBW_SIZE={}K", threshold_kib)};
  placement.description = fmt::format("LD_PRELOAD={} AUTO_HBW_SIZE={}K: allocations of at least that size in "
                                      "high-bandwidth memory while it lasts (no fraction held)",
                                      library.string(), threshold_kib);
  return placement;
}

constexpr std::array kMechanisms{
    CommandPlacementMechanism{"preferred", "MPOL_PREFERRED on the first fast node (no fraction held)",
                              with_fast_share<place_preferred>},
    CommandPlacementMechanism{"bind", "MPOL_BIND on the fast nodes (all of it, or allocation fails)",
                              with_fast_share<place_bind>},
    CommandPlacementMechanism{"weighted-interleave",
                              "MPOL_WEIGHTED_INTERLEAVE with system-wide weights for the fraction (Linux >= 6.9)",
                              with_fast_share<place_weighted_interleave>},
    CommandPlacementMechanism{"autohbw", "memkind's libautohbw.so by LD_PRELOAD (size threshold, no fraction)",
                              with_fast_share<place_autohbw>},
    CommandPlacementMechanism{"none", "no policy: the system places everything", place_none},
};

}  // namespace

const CommandPlacementMechanism& command_placement_mechanism(std::string_view name) {
  for (const auto& mechanism : kMechanisms) {
    if (mechanism.name == name) return mechanism;
  }
  throw UsageError(fmt::format("unknown placement '{}' (known: {})", name, fmt::join(command_placement_names(), ", ")));
}

std::vector<std::string> command_placement_names() {
  std::vector<std::string> names;
  for (const auto& mechanism : kMechanisms) names.emplace_back(mechanism.name);
  return names;
}

std::filesystem::path find_autohbw_library(const std::filesystem::path& given) {
  std::error_code error;
  if (!given.empty()) {
    if (!std::filesystem::is_regular_file(given, error)) {
      throw ResourceError(fmt::format("placement autohbw: {} is not a file", given.string()));
    }
    return given;
  }
  for (const char* folder : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib64",
                             "/usr/local/lib"}) {
    const std::filesystem::path candidate = std::filesystem::path(folder) / "libautohbw.so";
    if (std::filesystem::is_regular_file(candidate, error)) return candidate;
  }
  throw ResourceError("placement autohbw: libautohbw.so not found in the library folders (Debian's memkind does not "
                      "ship it; build memkind's autohbw and give its path with --autohbw-library)");
}

}  // namespace cosched::platform
