// Whether arrays first-touched by one team may serve another: the kernel places a page in the memory nearest the
// thread that first touches it, so a page lands in the same memory whichever core touches it exactly when all the
// cores share one memory locality.
#include <algorithm>
#include <optional>
#include <vector>

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

std::vector<unsigned> first_touch_mates(const platform::Topology& topology,
                                        const std::vector<std::vector<unsigned>>& allowed,
                                        const std::vector<std::vector<unsigned>>& team_pus) {
  std::vector<unsigned> mates;
  if (team_pus.empty() || !share_first_touch_placement(topology, team_pus)) return mates;
  std::vector<std::vector<unsigned>> with_candidate = team_pus;
  with_candidate.emplace_back();
  for (std::size_t k = 0; k < allowed.size(); ++k) {
    with_candidate.back() = allowed[k];
    if (share_first_touch_placement(topology, with_candidate)) mates.push_back(static_cast<unsigned>(k));
  }
  return mates;
}

}  // namespace cosched::stream
