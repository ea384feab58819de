#pragma once
// Exploration at no planned cost (issue 39, the recurring rows of docs/knowledge.md): a plan leaves cores idle —
// the tail of a list plan, the spare cores of a naive run of fewer tasks than cores. A task of a kind measured at
// few core counts is given more cores where they are idle during the whole of its planned run, so its run teaches
// its kind's speed-up at a core count not yet measured, and nothing else in the plan moves.
//
// The planned run is kept at its planned duration: a task that does not speed up at all with the extra cores still
// ends when planned, so the plan's makespan holds unless a program runs slower with more cores (the study's
// `slowdown` family does, past some count: the rows show what that costs).
#include <cstddef>
#include <vector>

#include "cosched/sched/schedule.hpp"

namespace cosched::bench {

struct ExplorationWish {
  std::size_t task = 0;      // index into the schedule's tasks
  std::size_t kind = 0;      // tasks of one kind are not sent to the same new count twice in one plan
  std::vector<int> counts;   // the core counts that would teach the kind something new, most wanted first
};

struct ExplorationGrant {
  std::size_t task = 0;
  int from_cores = 0;
  int to_cores = 0;
};

// In passes, the tasks that start last first (the tail of the plan; ties: the later task first), at most one task
// of a kind per pass: a task gets the first count of its wish above its cores whose extra cores are idle in
// `schedule` over its whole planned run [start, start + duration), are at most its share of them (the idle cores
// over the kinds still wishing, at least one) and that no earlier grant gave a task of its kind; passes go on while
// one grants something. Grows the tasks' allocations in `schedule` (cores only: resource 0) and returns what it
// granted, in order. The check counts cores only (fast chunks stay as planned).
[[nodiscard]] std::vector<ExplorationGrant> explore_idle_cores(sched::Schedule& schedule, int node_cores,
                                                               const std::vector<ExplorationWish>& wishes);

// The counts a kind measured at `measured` core counts (without fast memory) could be explored at on a node of
// `node_cores`: the halving grid P, P/2, ... 2 (knowledge::halving_cores) less what was measured, largest first.
[[nodiscard]] std::vector<int> unexplored_counts(int node_cores, const std::vector<int>& measured);

}  // namespace cosched::bench
