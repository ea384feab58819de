#pragma once
// One OpenMP team with one thread per planned core, each pinned to its core before it does anything: every
// region a session opens (first touch, measurement, check) goes through here, so a thread always works on its
// slice from the same core.
#include <functional>
#include <vector>

#include "cosched/stream/stream_run.hpp"
#include "run_plan.hpp"

namespace cosched::stream::detail {

// Runs body(thread) on every thread of the team and returns where each ran (bound PUs read back after binding,
// the PU observed after body). body may use OpenMP barriers: either every thread runs it or none does. The
// caller's thread (OpenMP thread 0) gets its own binding back. Throws a thread's binding error, or ResourceError
// when OpenMP started fewer threads.
std::vector<ThreadPlacement> run_pinned_team(const RunPlan& plan, const std::function<void(unsigned thread)>& body);

}  // namespace cosched::stream::detail
