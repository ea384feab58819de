#pragma once
// How an unmodified program (a command task) gets its share of the fast tier: one mechanism per entry of a table,
// chosen by name (`--placement`); callers never branch on a name. Every mechanism is applied by the launcher's
// child between fork and exec (a memory policy is inherited across exec) or through the child's environment:
//   preferred            set_mempolicy(MPOL_PREFERRED, first fast node): fast pages until the node is full; it
//                        cannot hold a fraction (the program takes what it allocates first)
//   bind                 set_mempolicy(MPOL_BIND, fast nodes): everything in the fast tier, or allocation fails
//   weighted-interleave  set_mempolicy(MPOL_WEIGHTED_INTERLEAVE, fast + slow nodes) with system-wide node weights
//                        approximating the fraction granted / footprint (mempolicy.hpp says where weights live)
//   autohbw              LD_PRELOAD memkind's libautohbw.so, AUTO_HBW_SIZE=threshold: allocations at least that
//                        big go to high-bandwidth memory while it lasts; no fraction
//   none                 no policy: the system places everything
// Without a fast share every mechanism but none binds the command to the slow nodes.
#include <string>
#include <string_view>
#include <vector>

#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform {

struct CommandPlacementMechanism {
  std::string_view name;
  std::string_view summary;  // one line for help texts
  // The placement of `request` (program == command). Throws ResourceError when it cannot work here (no fast and
  // slow nodes, no weighted interleave in this kernel, no libautohbw.so), UsageError when the request lacks what
  // it needs (weighted-interleave without a footprint).
  ChildPlacement (*place)(const ChildPlacementRequest& request) = nullptr;
};

inline constexpr std::string_view kDefaultCommandPlacement = "preferred";

// Throws UsageError for an unknown name, listing the known ones.
[[nodiscard]] const CommandPlacementMechanism& command_placement_mechanism(std::string_view name);
[[nodiscard]] std::vector<std::string> command_placement_names();

// memkind's autohbw library: `given` when not empty (must exist), else the first libautohbw.so found in the
// library folders. Throws ResourceError when there is none (Debian's memkind does not ship it).
[[nodiscard]] std::filesystem::path find_autohbw_library(const std::filesystem::path& given);

}  // namespace cosched::platform
