#pragma once
// A moldable schedule (allocation vector + start time per task) and the validator every schedule passes before it
// leaves the library's callers: tests, `cosched plan` and `cosched simulate`.
#include <optional>
#include <string>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched {

struct ScheduledTask {
  std::vector<int> alloc;  // p_j, one amount per resource
  double start = 0.0;      // s_j
  double duration = 0.0;   // t_j(p_j)
  int pack = -1;           // pack number for pack schedules, -1 for list schedules
};

struct Schedule {
  std::string algorithm;
  double makespan = 0.0;
  double lower_bound = 0.0;       // L_min(d) of the instance (Lemma 1); filled in by the caller that knows it
  double allocation_bound = 0.0;  // L(p, d) of the algorithm's own allocation phase (L'_min(d) for TF variants)
  std::vector<ScheduledTask> tasks;  // tasks[j] schedules instance task j
  // A lower bound on sum_j w_j C_j of every schedule of the instance (the interval-indexed LP of seed 001);
  // filled in by the caller that computed it, empty when not computed.
  std::optional<double> lower_bound_weighted_completion;
  // The launch rule the plan is made for when it is not its own kind's (list, or pack with pack numbers): "greedy"
  // for a list plan of predicted (some guessed) durations, whose tasks start in order as soon as they fit
  // (sim/policies.hpp: a task that ends early leaves no core idle); "" otherwise.
  std::string launch_rule;
};

// Makespan of the tasks' completion times (0 for no task).
[[nodiscard]] double completion_time(const std::vector<ScheduledTask>& tasks);

// The same allocations, starts and packs, each task's duration its time in `instance` at its allocation, the
// makespan the last completion: a schedule chosen on one estimate of the times (cosched run: the fits' expected
// values) and predicted on another (their medians). Times no longer than those it was made with keep it valid
// (every task ends no later); a longer one throws std::logic_error (it could overlap: a caller's bug).
[[nodiscard]] Schedule retimed(const Instance& instance, Schedule schedule);

// sum_j w_j C_j with the instance's weights; tasks[j] schedules instance task j.
[[nodiscard]] double weighted_completion_sum(const Instance& instance, const std::vector<ScheduledTask>& tasks);

// Every way `schedule` breaks the model, in words (empty = valid): task count, allocation vectors inside the
// capacities, durations equal to the instance's (closed) times, start times finite and >= 0, no resource over
// capacity at any instant (event sweep, intervals half-open), makespan = last completion, and for pack
// schedules: one start per pack, each pack starting after the previous one ended.
[[nodiscard]] std::vector<std::string> find_violations(const Instance& instance, const Schedule& schedule);

// Throws std::logic_error listing the violations: an invalid schedule from an algorithm is a bug, not bad input.
void require_valid(const Instance& instance, const Schedule& schedule);

}  // namespace cosched::sched
