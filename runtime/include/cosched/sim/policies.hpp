#pragma once
// The launch rules of Sec. 5.3, registered by name (adding an online policy touches policies/ and this list):
//   list — tasks in list order (planned start, then schedule order); a task starts when its planned start has
//          come and every resource it needs is free. If an earlier task ran late and its resources are still
//          busy, the task waits, and so do the tasks after it: list order is kept.
//   pack — a pack starts, all its tasks at once, when the previous pack has fully finished.
//   greedy — list order, each task as soon as every resource it needs is free, whatever its planned start: for a
//          plan of predicted durations (`cosched run`), where a task that ends early must not leave a core idle
//          until the next planned start. Given a Replanner (replanning.hpp), it re-plans its pending tasks as
//          tasks end.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/replanning.hpp"

namespace cosched::sim {

// "list", "pack", "greedy", or "auto" (the plan's launch rule when its schedule names one, else pack when it has
// pack numbers, else list). Throws UsageError otherwise. `replanner` (not owned; null: none) is shown every task that
// ends by the rules that re-plan (greedy); the others run the plan as made.
[[nodiscard]] std::unique_ptr<Policy> make_policy(std::string_view name, const LaunchPlan& plan,
                                                  Replanner* replanner = nullptr);
[[nodiscard]] std::vector<std::string> policy_names();

}  // namespace cosched::sim
