#pragma once
// Moldable BSP tasks: Dutot, Goldman, Kon, Netto, "Scheduling moldable BSP tasks" (JSSPP 2005; seed 004,
// digest shared/docs/seed-digest/004.md, docs/scheduling.md "Moldable BSP tasks").
//
// A BSP task asks for req processors (one BSP process each) and runs t(req) on them; on p < req processors the
// processes fold evenly, the busiest processor runs ceil(req/p) of them, so t(p) = ceil(req/p) * t(req) (Sec. 2.1,
// Table 1). More than req processors do not help: t(p) = t(req) for p >= req.
//
// The four algorithms of Sec. 3 (bsp-a1 ... bsp-a4 in the registry) are defined for one resource, the processors.
// They read a task through its times (any TimeProfile: BspProfile, or a dense table of a one-resource instance)
// and need every task to run on one processor, as a BSP task always can; the (2 + eps) guarantee of A4 and the
// soundness of its rejections hold for BSP tasks (Lemma 1 uses the ceiling form).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sched {

// t(p) = ceil(req / p) * t(req) on p = the first resource's amount (the processors); the other resources, when the
// instance has any, do not change the time. t(0) = +inf.
class BspProfile final : public TimeProfile {
 public:
  // req >= 1, time_at_req finite and > 0 (asserted: the Instance JSON parser validates them against the capacity).
  BspProfile(int req, double time_at_req);
  [[nodiscard]] int req() const noexcept { return req_; }
  [[nodiscard]] double time_at_req() const noexcept { return time_at_req_; }
  // t(p) for p processors.
  [[nodiscard]] double time_on(int procs) const noexcept;
  void fill_times(const AllocationSpace& space, std::span<double> out) const override;
  [[nodiscard]] double time_at(const AllocationSpace& space, std::span<const int> alloc) const override;

 private:
  int req_;
  double time_at_req_;
};

// The "interesting" allocations of a BSP task (Sec. 3.2): the p for which no smaller p has the same time,
// {ceil(req/q) : q = 1..req}, ascending — about 2 sqrt(req) of them; {1, 2, 3, 4, 7} for req = 7.
[[nodiscard]] std::vector<int> bsp_interesting_allocations(int req);

// One interesting allocation of a task and its time. A task's steps ascend in procs and strictly descend in time;
// t(p) for any p is the time of the last step with procs <= p.
struct BspStep {
  int procs;
  double time;
};
using BspSteps = std::vector<BspStep>;

// Why the BSP algorithms cannot schedule `instance` (empty: they can): more than one resource, or a task that
// cannot run on one processor. `algorithm` names the algorithm in the message.
[[nodiscard]] std::string bsp_refusal(const Instance& instance, std::string_view algorithm);

// The steps of every task of a one-resource instance whose tasks all run on one processor (bsp_refusal empty;
// asserted), capped at the capacity m: from the formula for BspProfile (O(sqrt(req))), else from the times.
[[nodiscard]] std::vector<BspSteps> bsp_steps(const Instance& instance);

// The paper's lower bound (Sec. 3, 4): max(longest task at its fastest, minimal work / m) with the minimal work
// of a task min_p p * t(p) = req * t(req) for a BSP task. Same preconditions as bsp_steps.
[[nodiscard]] double bsp_lower_bound(const Instance& instance);

// A4's test of a guess w (Sec. 3.1, dual approximation): the schedule of makespan <= 2w, or nullopt when the guess
// is rejected — each task at its minimal allotment a_i with t(a_i) <= 2w, tasks with a_i > 1 side by side from 0,
// the others by LPT on the q = m - sum a_i processors left. For BSP tasks a rejection proves w < OPT (Theorem 1).
[[nodiscard]] std::optional<Schedule> bsp_a4_try(const Instance& instance, double guess);

// The four algorithms (Sec. 3); the schedules' allocation_bound is bsp_lower_bound.
// A1: for every cap c = 1..m, every task on min(req, c) processors, Largest Task First (by p * t(p)) list
// scheduling (Garey-Graham: at every completion, start each listed task that fits); the best cap's schedule.
[[nodiscard]] Schedule bsp_a1(const Instance& instance);
// A2: repeatedly place the (task, interesting allocation) with the smallest idle time (m * Cmax - work) if it does
// not increase the idle time, else the largest remaining task (by minimal work) on req processors; every placement
// at the task's earliest fit, holes below the makespan included. A3: always the smallest.
[[nodiscard]] Schedule bsp_a2(const Instance& instance);
[[nodiscard]] Schedule bsp_a3(const Instance& instance);
// A4: binary search of the smallest accepted guess, to within epsilon * bsp_lower_bound; makespan <= 2 * guess
// < (2 + epsilon) * OPT for BSP tasks, and <= (2 + epsilon) * bsp_lower_bound.
inline constexpr double kBspA4Epsilon = 1e-3;
[[nodiscard]] Schedule bsp_a4(const Instance& instance, double epsilon = kBspA4Epsilon);

}  // namespace cosched::sched
