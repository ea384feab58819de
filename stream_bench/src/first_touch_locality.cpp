// Whether arrays first-touched by one team may serve another: the kernel places a page in the memory nearest the
// thread that first touches it, so a page lands in the same memory whichever core touches it exactly when all the
// cores share one memory locality.
#include <algorithm>
#include <optional>

#include "cosched/stream/stream_session.hpp"

namespace cosched::stream {

bool share_first_touch_placement(const platform::Topology& topology,
                                 const std::vector<std::vector<unsigned>>& core_pus) {
  std::optional<unsigned> shared;
  for (const std::vector<unsigned>& pus : core_pus) {
    const auto core = std::find_if(topology.cores().begin(), topology.cores().end(),
                                   [&](const platform::Core& candidate) { return candidate.pus == pus; });
    if (core == topology.cores().end()) return false;
    if (shared && *shared != core->cluster) return false;
    shared = core->cluster;
  }
  return true;
}

}  // namespace cosched::stream
