#pragma once
// Online workloads on the engine (seed 000): an online plan (plan.hpp, online_plan) runs on any clock with an
// online policy — on the simulated clock it is the replay of a trace or synthetic workload (predict() in
// launch.hpp), on the wall clock a node workload run for real (launch()). This turns an engine run into the
// per-job outcomes and the metrics of sched/online/metrics.hpp.
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sched/online/metrics.hpp"

namespace cosched::sim {

// Start, end and allocation of each task that ran (completed: ended with status ok).
[[nodiscard]] std::vector<sched::online::JobOutcome> job_outcomes(const EngineResult& result);

// The metrics of an online plan's run, with the time the policy took (per event: releases and completions).
[[nodiscard]] sched::online::OnlineMetrics run_metrics(const LaunchPlan& plan, const EngineResult& result);

}  // namespace cosched::sim
