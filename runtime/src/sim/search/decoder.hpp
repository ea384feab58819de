#pragma once
// The candidates of the model-driven planner (cosched/sim/model_search.hpp) and how one becomes a plan and its
// prediction, through the same engine, clocks, policies and resource pool as every prediction.
#include <cstddef>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/resources.hpp"

namespace cosched::sim::search {

struct Candidate {
  std::vector<std::size_t> order;       // the priority list: a permutation of the tasks
  std::vector<std::size_t> allocation;  // per task, its linear index in the instance's AllocationSpace
  std::vector<std::pair<std::size_t, std::size_t>> apart;  // pairs (a < b) that must not run at the same time
};

// A decoded candidate: its plan (planned starts, the paper model's) and the launch of that plan as the contention
// clock predicts it.
struct Decoded {
  double makespan = 0.0;        // contention-aware
  double completion_sum = 0.0;  // the secondary objective: it moves when the makespan sits on a plateau
  std::vector<double> planned_start;  // per task, the paper model's list schedule
  std::vector<double> start;          // per task, contention-aware
  std::vector<double> end;
  // Strictly better: a shorter makespan, or the same one (to 1e-12 relative) with a smaller completion sum.
  [[nodiscard]] bool better_than(const Decoded& other) const;
};

// The candidate of a schedule: tasks listed by start (ties: task order), the schedule's allocations, no pair
// kept apart.
[[nodiscard]] Candidate candidate_of(const sched::Instance& instance, const sched::Schedule& schedule);

class Decoder {
 public:
  explicit Decoder(const sched::Instance& instance);

  // The plan: list scheduling of the candidate with the paper model's durations (the simulated clock) — at time 0
  // and at every completion, every waiting task in list order starts when its allocation fits in what is free
  // and none of its `apart` partners runs (later tasks may pass one that waits; when nothing runs the first
  // waiting task starts, so it always finishes). Then the prediction: that plan launched with the list rule on
  // the contention clock, exactly as `cosched launch` predicts it.
  [[nodiscard]] Decoded decode(const Candidate& candidate);

  // The schedule of a decoded candidate: the planned starts, the allocations, the paper model's durations — a
  // list schedule, valid for the instance by construction.
  [[nodiscard]] sched::Schedule schedule(const Candidate& candidate, const Decoded& decoded) const;

  // t_j at an allocation (linear index), read once.
  [[nodiscard]] double time(std::size_t task, std::size_t allocation) const;

 private:
  struct Entry {
    double time;
    sched::FlowDemand flow;
  };
  const Entry& entry(std::size_t task, std::size_t allocation) const;

  const sched::Instance& instance_;
  LaunchPlan plan_;  // ids, resources and bandwidth model once; each decode sets the tasks' demands
  std::unique_ptr<NodeResources> pool_;  // every decode returns what it takes
  mutable std::unordered_map<std::size_t, Entry> entries_;  // key: task * P + allocation
};

}  // namespace cosched::sim::search
