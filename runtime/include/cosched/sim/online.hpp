#pragma once
// Online workloads on the engine (seed 000): an online plan (plan.hpp, online_plan) runs on any clock with an
// online policy — on the simulated clock it is the replay of a trace or synthetic workload (predict() in
// launch.hpp), on the wall clock a node workload run for real (launch()). This turns an engine run into the
// per-job outcomes and the metrics of online/metrics.hpp.
#include <span>
#include <vector>

#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/online/jobs_csv.hpp"
#include "cosched/online/metrics.hpp"

namespace cosched::sim {

// Start, end and allocation of each task that ran (completed: ended with status ok).
[[nodiscard]] std::vector<online::JobOutcome> job_outcomes(const EngineResult& result);

// One record per job of an online plan's run, in the plan's order (jobs_csv.hpp says what each field holds);
// campaign_of gives each job's campaign, or is empty.
[[nodiscard]] std::vector<online::JobRecord> job_records(const LaunchPlan& plan, const EngineResult& result,
                                                              std::span<const std::size_t> campaign_of = {});

// The metrics of an online plan's run, with the time the policy took (per event: releases and completions).
[[nodiscard]] online::OnlineMetrics run_metrics(const LaunchPlan& plan, const EngineResult& result);

}  // namespace cosched::sim
