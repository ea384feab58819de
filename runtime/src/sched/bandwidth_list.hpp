#pragma once
// The ninth algorithm, "bw-list-lpt": the d-resource list algorithm (RA_d(d) + LS_d, LPT) on the instance with
// each memory pool's bandwidth as one more resource (issue 10; docs/scheduling.md "Planning with bandwidth").
//
// Bandwidth as resources: cosched/sched/bandwidth_planning.hpp. List scheduling on these vectors never runs tasks
// whose bandwidth shares add up to more than a pool delivers, so the schedule does not count on bandwidth the node does not have:
// tasks co-run only where the pools can feed them, and fast memory (which removes slow-tier traffic) goes where it
// shortens the schedule. The schedule of the original instance keeps each task's (cores, chunks) and start; its
// duration is t(p) <= t'(p, b), so it is valid for the same validator as the eight.
// Without a bandwidth model or traffic it is d-list-lpt.
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/bandwidth_planning.hpp"

namespace cosched::sched::detail {

class BandwidthListAlgorithm final : public Algorithm {
 public:
  [[nodiscard]] std::string_view name() const override { return "bw-list-lpt"; }
  [[nodiscard]] Schedule schedule(const Instance& instance) const override;
};

}  // namespace cosched::sched::detail
