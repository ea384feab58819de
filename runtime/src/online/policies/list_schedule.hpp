#pragma once
// A list schedule from `now` (FCFS's predicted schedule, EDF's schedule in DASEDF): jobs are placed one by one in
// the order given, each at the earliest time at or after the previous job's start at which its demand fits in
// every resource — no job overtakes an earlier one. After the latest start the free amounts only grow, so the
// whole state is a heap of the ends of the jobs holding resources: O(log k) per job, k the jobs holding resources
// (at most m for sequential jobs: the paper's heap of processor availabilities).
#include <cstddef>
#include <functional>
#include <queue>
#include <span>
#include <vector>

#include "online/policies/reference_jobs.hpp"

namespace cosched::online::policies {

class ListSchedule {
 public:
  // Running jobs hold their allocations until their expected ends (freed_at).
  explicit ListSchedule(const OnlineState& state);

  // Places `demand` for `duration` and returns its start; +inf when it can never fit (demand beyond capacity).
  double place(std::span<const int> demand, double duration);

 private:
  struct Holding {
    double end;
    std::span<const int> demand;  // points into the state or the ReferenceJobs: both outlive the schedule
    bool operator>(const Holding& other) const { return end > other.end; }
  };
  double cursor_;  // the latest start so far
  std::vector<int> free_;
  std::priority_queue<Holding, std::vector<Holding>, std::greater<>> holding_;
};

}  // namespace cosched::online::policies
